class Shape:
    def __init__(self, side):
        self.side = side

    @property
    def area(self):
        return self.side * self.side


def through_class():
    getter = Shape.area.fget
    return getter(Shape(2))


def main():
    through_class()
    return Shape(3).area


main()
