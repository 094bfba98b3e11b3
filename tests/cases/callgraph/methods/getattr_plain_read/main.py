class Settings:
    def __init__(self):
        self.debug = False

    def __getattr__(self, name):
        return "from the hook"


class Plain:
    def __init__(self):
        self.value = 1


def read_missing():
    return Settings().timezone


def read_set():
    return Settings().debug


def read_plain():
    return Plain().value


read_missing()
read_set()
read_plain()
