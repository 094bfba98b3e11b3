def helper():
    return "stored under a computed name"


class Options:
    def __init__(self, **given):
        for name, value in given.items():
            setattr(self, name, value)

    def __getattr__(self, name):
        raise AttributeError(name)


class Settings:
    def __init__(self, given):
        self.__dict__.update(given)

    def __getattr__(self, name):
        raise AttributeError(name)


def use_options():
    return Options(run=helper).run()


def use_settings():
    return Settings({"run": helper}).run()


use_options()
use_settings()
