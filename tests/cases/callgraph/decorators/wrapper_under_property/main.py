import functools


def muted(method):
    def replacement(self, *args):
        return None

    return replacement


def logged(method):
    @functools.wraps(method)
    def wrapper(self, *args):
        return method(self, *args)

    return wrapper


class Settings:
    @property
    @muted
    def secret(self):
        return "secret"

    @property
    @logged
    def name(self):
        return "name"

    @name.setter
    @muted
    def name(self, value):
        self.stored = value


def run():
    settings = Settings()
    settings.secret
    settings.name
    settings.name = "other"


run()
