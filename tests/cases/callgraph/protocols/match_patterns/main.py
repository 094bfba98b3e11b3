class Token:
    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return self.text == other

    __hash__ = None


class Point:
    def __init__(self, x):
        self.x = x

    def norm(self):
        return abs(self.x)


class Circle:
    def area(self):
        return 3


def classify(token):
    match token:
        case "if" | "else":
            return "keyword"
        case _:
            return "name"


def describe(shape):
    match shape:
        case Point() as point:
            return point.norm()
        case Circle(area=_) as circle:
            return circle.area()
    return None


def plain(value):
    match value:
        case 0:
            return "zero"
    return "other"


classify(Token("if"))
describe(Point(-2))
describe(Circle())
plain(5)
