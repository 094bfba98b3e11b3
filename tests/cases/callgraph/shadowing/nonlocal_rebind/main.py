def first():
    return 1


def second():
    return 2


def outer():
    handler = first

    def switch():
        nonlocal handler
        handler = second

    switch()
    return handler()


outer()
