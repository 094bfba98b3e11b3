class Square:
    def __init__(self, side):
        self.side = side

    @property
    def area(self):
        return self.side * self.side

    @area.setter
    def area(self, value):
        self.side = value**0.5

    def __setattr__(self, name, value):
        super().__setattr__(name, value)

    def __delattr__(self, name):
        super().__delattr__(name)

    @area.deleter
    def area(self):
        del self.side


def resize():
    square = Square(2)
    square.area = 16
    del square.area
    return square


resize()
