class Shape:
    def __init__(self):
        self.sides = 0

    @classmethod
    def create(cls):
        return cls()


class Square(Shape):
    def __init__(self):
        super().__init__()
        self.sides = 4


Shape.create()
Square.create()
