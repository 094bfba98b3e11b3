import functools
import types


def traced(function):
    @functools.wraps(function)
    def wrapper(*args):
        return function(*args)

    return wrapper


class Square:
    def __init__(self, side):
        self.side = side

    @types.DynamicClassAttribute
    def area(self):
        return self.side * self.side

    @traced
    def perimeter(self):
        return 4 * self.side

    def describe(self):
        return f"{self.area} {self.perimeter}"


def run():
    square = Square(2)
    square.describe()
    return square.area


run()
