class Label:
    def __str__(self):
        return "label"

    def __repr__(self):
        return "Label()"


class Point:
    def __init__(self, x):
        self.x = x

    def __eq__(self, other):
        return isinstance(other, Point) and self.x == other.x

    def __hash__(self):
        return hash(self.x)


def show(value):
    print(value)


def printed():
    label = Label()
    print(label)
    print("label:", label, sep="")
    show(Label())


def percent():
    label = Label()
    one = "%s" % label
    two = "%s and %r" % (label, label)
    keyed = "%(name)s" % {"name": label}
    number = "%d%%" % 5
    return one, two, keyed, number


def containers():
    label = Label()
    return str([label]), repr((label, 1)), f"{[[label]]}"


def compared():
    same = [Point(1)] == [Point(1)]
    different = (Point(1),) != (Point(2),)
    return same, different


def main():
    printed()
    percent()
    containers()
    compared()


main()
