class Plain:
    def describe(self):
        return "plain"


class Factory:
    def __new__(cls):  # returns a Plain: Factory().describe() is Plain's
        return Plain()

    def describe(self):
        return "factory"


class Normal:
    def __new__(cls):
        return super().__new__(cls)

    def describe(self):
        return "normal"


def use():
    return Factory().describe()


def use_normal():
    return Normal().describe()


use()
use_normal()
