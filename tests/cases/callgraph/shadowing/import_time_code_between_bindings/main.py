def first():
    return "first"


def second():
    return "second"


def run():
    return handler()


class Trigger:
    def __add__(self, other):
        run()
        return self


class Registered:
    def __init_subclass__(cls):
        run()


def outer():
    value = first

    def middle():
        def inner():
            nonlocal value
            value = second

        inner()

    middle()
    return value()


trigger = Trigger()
handler = first
trigger + 1
[run() for _ in "x"]


class Plugin(Registered):
    pass


handler = second
run()
outer()
