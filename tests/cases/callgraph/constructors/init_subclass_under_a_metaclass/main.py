registry = []


class Meta(type):
    def __new__(mcls, name, bases, namespace):
        return super().__new__(mcls, name, bases, namespace)


class Registered:
    def __init_subclass__(cls):
        registry.append(cls)


def define_plain():
    class Plain(Registered):
        pass

    return Plain


def define_predicates():
    class Predicate(Registered, metaclass=Meta):
        pass

    class Even(Predicate):
        pass

    return Even


def define_dynamically():
    return type("Made", (Registered,), {})


define_plain()
define_predicates()
define_dynamically()
