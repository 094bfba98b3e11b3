def check(value):
    return value


class Guarded:
    def __setattr__(self, name, value):
        object.__setattr__(self, name, check(value))


def configure():
    settings = Guarded()
    settings.debug = True
    return settings


configure()
