def audited(self):
    return "audited"


def default_render(self):
    return "default"


class Auditing(type):
    def __new__(mcs, name, bases, namespace):
        if "save" in namespace:
            namespace["save"] = audited
        return super().__new__(mcs, name, bases, namespace)


class Rendering(type):
    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        cls.render = default_render


class Quiet(type):
    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)


class Model(metaclass=Auditing):
    def save(self):
        return "saved"


class Button(metaclass=Rendering):
    def render(self):
        return "button"


class Label(metaclass=Quiet):
    def render(self):
        return "label"


def run():
    Model().save()
    Button().render()
    Label().render()


run()
