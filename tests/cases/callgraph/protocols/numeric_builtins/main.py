import math


class Amount:
    def __abs__(self):
        return Amount()

    def __int__(self):
        return 1

    def __float__(self):
        return 1.0

    def __round__(self, digits=None):
        return 1

    def __floor__(self):
        return 1

    def __index__(self):
        return 1


def convert(amount):  # the parameter's class comes from the one caller
    return abs(amount), int(amount), float(amount), round(amount), math.floor(amount)


def direct():
    return int(Amount())


convert(Amount())
direct()
