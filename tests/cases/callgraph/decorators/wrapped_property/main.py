class Logged:
    def __init__(self, prop):
        self.prop = prop

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return self.prop.fget(instance)


def logged(prop):
    return Logged(prop)


class Box:
    @logged
    @property
    def size(self):
        return 3

    @property
    def plain(self):
        return 1


def read():
    box = Box()
    return box.size + box.plain


read()
