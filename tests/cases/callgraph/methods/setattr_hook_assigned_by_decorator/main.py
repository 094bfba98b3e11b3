def validated(cls):
    def checked_setattr(self, name, value):
        object.__setattr__(self, name, value)

    cls.__setattr__ = checked_setattr
    return cls


@validated
class Point:
    def __init__(self):
        self._x = 0

    @property
    def x(self):
        return self._x

    @x.setter
    def x(self, value):
        self._x = value


def move():
    point = Point()
    point.x = 3
    return point


move()
