import sys


def original():
    return 1


def replacement():
    return 2


def other():
    return 3


this = sys.modules[__name__]
this.original = replacement
setattr(sys.modules[__name__], "other", replacement)


def run():
    return original() + other()


run()
