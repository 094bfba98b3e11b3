def replacement():
    return "replaced"


class Intercepted:
    def __getattribute__(self, name):
        if name == "greet":
            return replacement
        return object.__getattribute__(self, name)

    def greet(self):
        return "never: __getattribute__ answers first"


class Child(Intercepted):
    def wave(self):
        return "wave"


class Plain:
    def greet(self):
        return "hello"


def use():
    return Intercepted().greet()


def use_child():
    return Child().wave()


def use_plain():
    return Plain().greet()


use()
use_child()
use_plain()
