_setattr = object.__setattr__


class Frozen:
    def __init__(self, size):
        _setattr(self, "size", size)

    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        object.__setattr__(self, "_size", value)

    @size.deleter
    def size(self):
        object.__delattr__(self, "_size")

    def __setattr__(self, name, value):
        raise AttributeError(name)

    def __delattr__(self, name):
        raise AttributeError(name)

    def peek(self):
        return object.__getattribute__(self, "size")

    def drop(self):
        object.__delattr__(self, "size")


class Box:
    @property
    def label(self):
        return "box"

    @label.deleter
    def label(self):
        pass


def use():
    frozen = Frozen(3)
    frozen.peek()
    frozen.drop()
    box = Box()
    delattr(box, "label")
    return box


use()
