class Allowlist:
    def __init__(self):
        self.names = {"root"}

    def __contains__(self, name):
        return normalize(name) in self.names


def normalize(name):
    return name[:4]


ok = "ROOT" in Allowlist()
