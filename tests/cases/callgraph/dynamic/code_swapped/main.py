def original():
    return "original"


def replacement():
    return "replacement"


def patch():
    original.__code__ = replacement.__code__


def use():
    return original()


patch()
use()
