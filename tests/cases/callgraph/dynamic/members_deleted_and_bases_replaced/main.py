class Shape:
    def area(self):
        return 0


class Square(Shape):
    def area(self):
        return 4


class Circle(Shape):
    def area(self):
        return 3


class Triangle(Shape):
    def area(self):
        return 1


class Other:
    def area(self):
        return -1


class Hexagon(Shape):
    pass


del Square.area
delattr(Circle, "area")
Hexagon.__bases__ = (Other,)


def run():
    Square().area()
    Circle().area()
    Triangle().area()
    Hexagon().area()


run()
