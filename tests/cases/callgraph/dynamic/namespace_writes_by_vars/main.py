import target


def f():
    return 1


def g():
    return 2


def new():
    return 3


vars(target)["f"] = new
target.f()
vars()["f"] = g
f()
