class Money:
    def __init__(self, cents):
        self.cents = cents

    def __neg__(self):
        return Money(-self.cents)

    def __pos__(self):
        return self

    def __invert__(self):
        return Money(0)

    def __format__(self, spec):
        return f"{self.cents / 100:{spec}}"

    def __str__(self):
        return "money"

    def __repr__(self):
        return "Money()"


class Plain:
    def __repr__(self):
        return "Plain()"


def signs():
    money = Money(100)
    return -money, +money, ~money


def formatted():
    money = Money(250)
    return f"{money:.2f}", f"{money!s}", f"{money!r}"


def plain_text():
    plain = Plain()
    return str(plain), f"{plain}"


def main():
    signs()
    formatted()
    plain_text()


main()
