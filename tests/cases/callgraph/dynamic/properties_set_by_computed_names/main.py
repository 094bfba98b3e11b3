def make_property(fact):
    def getter(self):
        return self.decide(fact)

    return property(getter)


def install(cls):
    for fact in ("positive", "finite"):
        setattr(cls, "is_" + fact, make_property(fact))


class Basic:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        install(cls)

    def decide(self, fact):
        return fact == "positive"

    @property
    def is_finite(self):
        return True

    def sign(self):
        return 1 if self.is_positive else -1


class Number(Basic):
    def describe(self):
        label()
        return self.is_finite

    def remember(self):
        self.last = 1


class Point:
    def __init__(self):
        self.x = 0

    def norm(self):
        label()
        return self.x


def label():
    return "label"


def check(number, point):
    label()
    return point.x


def probe(thing):
    label()
    return thing.is_positive


PROBES = {"probe": probe}


def run():
    number = Number()
    point = Point()
    number.sign()
    number.describe()
    number.remember()
    point.norm()
    check(number, point)
    PROBES["probe"](number)
    return number.is_positive


run()
