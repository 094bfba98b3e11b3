class A:
    def __add__(self, other):
        return 1

    def name(self):
        return "a"


class B:
    def __add__(self, other):
        return 2

    def name(self):
        return "b"


class Acc:
    def __add__(self, other):
        return self


x = A()
y = x + 1
alias = x
x = B()

b = Acc()
b = b + 1


def use():
    return alias.name()


use()
