def default_rule(x):
    return True


def strict_rule(x):
    return x > 0


class Checker:
    rule = staticmethod(default_rule)

    def __init__(self):
        self.rule = strict_rule

    def check(self, x):
        return self.rule(x)


Checker().check(1)
