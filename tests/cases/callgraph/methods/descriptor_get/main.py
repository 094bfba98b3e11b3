def handler():
    return "handled"


class Bound:
    def __get__(self, obj, owner=None):
        return handler

    def __call__(self):
        return "never: reading the attribute runs __get__"


class Ambiguous:
    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return handler

    def __call__(self):
        return "called through the class"


class Host:
    action = Bound()
    either = Ambiguous()


class Stored:
    def __init__(self):
        self.action = Bound()  # an instance attribute: no __get__


def use():
    return Host().action()


def use_either():
    return Host().either()


def use_stored():
    return Stored().action()


use()
use_either()
use_stored()
