class Validator:
    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return obj.__dict__.get(self.name)

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value


class Metadata:
    version = Validator()

    def write(self, names):
        return [getattr(self, name) for name in names]

    def load(self, values):
        for name, value in values.items():
            setattr(self, name, value)


m = Metadata()
m.load({"version": "1.0"})
m.write(["version"])
