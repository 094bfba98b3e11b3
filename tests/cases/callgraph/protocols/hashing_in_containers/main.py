class Key:
    def __init__(self, name):
        self.name = name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        return isinstance(other, Key) and other.name == self.name


class Plain:
    pass


def lookup():
    seen = {Key("a")}
    return Key("a") in seen


def table():
    key = Key("b")
    counts = {key: 1}
    counts[key] = counts[key] + 1
    found = counts.get(Key("c"))
    names = {Key(n) for n in "xy"}
    names.add(Key("z"))
    return found, names


def identity():
    plain = Plain()
    return {plain: 1}[plain]


lookup()
table()
identity()
