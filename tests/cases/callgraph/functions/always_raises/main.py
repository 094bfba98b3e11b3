class Loader:
    """An extension point: subclasses implement load."""

    def load(self, name):
        raise NotImplementedError("subclasses load")

    def load_upper(self, name):
        return self.load(name).upper()


class Echo(Loader):
    def load(self, name):
        return name


def fail(message):
    raise ValueError(message)


def checked(value):
    if value is None:
        fail("no value").close()
    return value


Echo().load_upper("x")
try:
    checked(None)
except ValueError:
    pass
