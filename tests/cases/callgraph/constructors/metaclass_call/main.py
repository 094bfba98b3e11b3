class Lazy(type):
    def __call__(cls, *args):
        return object.__new__(cls)


class Service(metaclass=Lazy):
    def __init__(self):
        self.started = True


Service()
