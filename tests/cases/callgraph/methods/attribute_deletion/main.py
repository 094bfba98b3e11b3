class Box:
    def __init__(self):
        self._value = 0

    @property
    def value(self):
        return self._value

    @value.deleter
    def value(self):
        self._value = None


class Slot:
    def __get__(self, instance, owner=None):
        return 1

    def __delete__(self, instance):
        return None


class Holder:
    slot = Slot()


class Guarded:
    def __delattr__(self, name):
        object.__delattr__(self, name)


def delete_property():
    box = Box()
    del box.value


def delete_descriptor():
    holder = Holder()
    del holder.slot


def delete_guarded():
    guarded = Guarded()
    guarded.extra = 1
    del guarded.extra


def delete_plain():
    box = Box()
    box.other = 1
    del box.other


delete_property()
delete_descriptor()
delete_guarded()
delete_plain()
