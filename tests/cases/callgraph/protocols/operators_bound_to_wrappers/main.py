import functools


def sympify_other(method):
    @functools.wraps(method)
    def checked(self, other):
        if not isinstance(other, Number):
            other = Number(other)
        return method(self, other)

    return checked


def _same(left, right):
    return left.value == right.value


class Number:
    def __init__(self, value):
        self.value = value

    @sympify_other
    def __add__(self, other):
        return Number(self.value + other.value)

    __eq__ = _same
    __hash__ = None

    def __sub__(self, other):
        return Number(self.value - other.value)


def plus(a, b):
    return a + b


def equal(a, b):
    return a == b


def minus(a, b):
    return a - b


HANDLERS = {"plus": plus, "equal": equal, "minus": minus}


def run():
    one, two = Number(1), Number(2)
    HANDLERS["plus"](one, 2)
    HANDLERS["equal"](one, two)
    HANDLERS["minus"](two, one)
    return one + two


run()
