def f():
    return "f"


def g():
    return "g"


def install(namespace):
    namespace["f"] = g


install(globals())


def run():
    return f()
