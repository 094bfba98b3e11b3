import abc


class Field:
    def __set_name__(self, owner, name):
        self.name = name


class Cached:
    def __init__(self, function):
        self.function = function

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, instance, owner=None):
        return self.function(instance)


class Record:
    title = Field()

    @Cached
    def size(self):
        return 1


def build():
    class Replaced:
        slot = Field()
        slot = None

    return Replaced


def build_abstract():
    class Abstract(abc.ABC):
        slot = Field()

    return Abstract


build()
build_abstract()
