import functools


def logged(f):
    @functools.wraps(f)
    def inner(*a):
        return f(*a)
    return inner


def cleanup():
    return 1


class C:
    @property
    def x(self):
        return 1

    @x.deleter
    @logged
    def x(self):
        cleanup()


c = C()
del c.x
