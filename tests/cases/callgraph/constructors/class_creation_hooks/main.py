REGISTRY = []


class Meta(type):
    def __new__(mcs, name, bases, namespace):
        return super().__new__(mcs, name, bases, namespace)


class Plugin:
    def __init_subclass__(cls):
        REGISTRY.append(cls)


class Model(metaclass=Meta):
    pass


class Exporter(Plugin):
    pass
