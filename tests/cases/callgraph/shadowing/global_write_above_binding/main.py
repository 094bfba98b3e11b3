def a():
    return 1


def b():
    return 2


def setup():
    global f
    f = b


f = a
setup()
f()
