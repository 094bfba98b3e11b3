class Key:
    def __init__(self, name):
        self.name = name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        return isinstance(other, Key) and other.name == self.name


def lookup():
    seen = {Key("a")}
    return Key("a") in seen


lookup()
