class Text:
    def strip(self):
        return self


class Declines:
    def __add__(self, other):
        return NotImplemented


class Answers:
    def __radd__(self, other):
        return Text()


class Vector:
    def __add__(self, other):
        return Vector()

    def __radd__(self, other):
        return Vector()

    def norm(self):
        return 1


class Scaled(Vector):
    def __radd__(self, other):
        return Result()


class Result:
    def norm(self):
        return 2


def declined():
    return (Declines() + Answers()).strip()


def plain():
    return (Vector() + Vector()).norm()


def subclass_first():
    return (Vector() + Scaled()).norm()


declined()
plain()
subclass_first()
