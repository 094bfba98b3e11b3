def helper():
    return "real"


def other():
    return "real"


def third():
    return "real"


class Service:
    def fetch(self):
        return "real"


def replacement():
    return "patched"
