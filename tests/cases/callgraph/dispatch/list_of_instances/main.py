class Circle:
    def area(self):
        return 3.14


class Square:
    def area(self):
        return 1.0


def total():
    return sum(s.area() for s in [Circle(), Square()])


total()
