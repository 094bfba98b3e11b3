class Num:
    def __add__(self, other):
        return "num"

    def __lt__(self, other):
        return True

    def __eq__(self, other):
        return True


class Special(Num):
    def __radd__(self, other):  # Num() + Special() runs this, and not Num.__add__
        return "special"

    def __gt__(self, other):  # Num() < Special() runs this, and not Num.__lt__
        return False


class Plain(Num):  # overrides nothing: Num's methods run as usual
    pass


class Money:
    def __add__(self, other):
        return "money"

    __radd__ = __add__


class Cents(Money):  # the inherited __radd__ is Money's own: not overridden
    pass


def subclass_on_the_right():
    return Num() + Special(), Num() < Special()


def plain_subclass():
    return Num() + Plain(), Num() < Plain(), Num() == Plain(), Num() != Plain()


def not_overridden():
    return Money() + Cents()


def unknown_right(other):
    return Num() + other


unknown_right(1)
unknown_right(Special())
subclass_on_the_right()
plain_subclass()
not_overridden()
