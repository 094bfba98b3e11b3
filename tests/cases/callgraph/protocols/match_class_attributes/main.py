def handler():
    return "handled"


def other():
    return "other"


class Point:
    __match_args__ = ("x", "y")

    def __init__(self):
        self.x = handler
        self.y = other

    @property
    def norm(self):
        return 5


class Label:
    def upper(self):
        return "LABEL"


def positional(p):
    match p:
        case Point(f, _):
            return f()
    return None


def keyword(p):
    match p:
        case Point(y=g, norm=n):
            return g(), n
    return None


def nested(pair):
    match pair:
        case (Point(h, _), Label() as label):
            return h(), label.upper()
    return None


def builtin(value):
    match value:
        case str(text):
            return text.upper()
    return None


positional(Point())
keyword(Point())
nested((Point(), Label()))
builtin("x")
