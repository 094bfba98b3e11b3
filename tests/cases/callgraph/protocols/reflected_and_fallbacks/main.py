class Meters:
    def __init__(self, value):
        self.value = value

    def __radd__(self, other):
        return Meters(other + self.value)

    def __gt__(self, other):
        return self.value > other

    def __eq__(self, other):
        return isinstance(other, Meters) and other.value == self.value

    __hash__ = None


class Vector:
    def __init__(self, x):
        self.x = x

    def __add__(self, other):
        return Vector(self.x + other.x)


class Countdown:
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        return iter(range(self.start))


class Letters:
    def __getitem__(self, index):
        if index > 2:
            raise IndexError(index)
        return "abc"[index]


def reflected():
    return 5 + Meters(3)


def compared():
    return 1 < Meters(2)


def unequal():
    return Meters(1) != Meters(2)


def grown():
    vector = Vector(1)
    vector += Vector(2)
    return vector


def contained():
    return 2 in Countdown(3), "b" in Letters()


def iterated():
    return [letter for letter in Letters()]


def main():
    reflected()
    compared()
    unequal()
    grown()
    contained()
    iterated()


main()
