def quiet(method):
    def wrapper(self, *args):
        return None

    return wrapper


class Muted:
    @quiet
    def __init__(self, value):
        self.value = value


def setup(self):
    self.ready = True


class Rebound:
    def __init__(self):
        self.ready = False


Rebound.__init__ = setup


class Passthrough:
    def __new__(cls, value):
        return value

    def __init__(self, value):
        self.value = value


class Plain:
    def __init__(self):
        self.ready = True


def run():
    Muted(1)
    Rebound()
    Passthrough(2)
    Plain()


run()
