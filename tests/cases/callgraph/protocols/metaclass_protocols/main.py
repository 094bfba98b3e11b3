class Registry(type):
    @classmethod
    def __prepare__(mcs, name, bases):
        return {}

    def __iter__(cls):
        return iter(cls.members)

    def __len__(cls):
        return len(cls.members)

    @property
    def label(cls):
        return cls.__name__.lower()


class Colors(metaclass=Registry):
    members = ["red", "green"]
    label = "shadowed by the metaclass property"


class Plain:
    members = []

    def __len__(self):
        return 0


def run():
    names = list(Colors)
    size = len(Colors)
    text = Colors.label
    plain = len(Plain())
    return names, size, text, plain


run()
