def head():
    return 1


def middle():
    return 2


def tail():
    return 3


first, *rest, last = head, middle, middle, tail
first()
last()
rest[0]()
*everything, = (tail,)
everything[0]()
