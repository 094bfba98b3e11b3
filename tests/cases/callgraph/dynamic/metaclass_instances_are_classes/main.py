class Fallback(type):
    def __getattr__(cls, name):
        return cls.lookup

    def describe(cls):
        return cls.label()


class Service(metaclass=Fallback):
    @staticmethod
    def lookup():
        return "lookup"

    @staticmethod
    def label():
        return "service"


def run():
    Service.anything()
    Service.describe()


run()
