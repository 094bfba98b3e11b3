from collections import UserDict
from string import Formatter


class Settings(UserDict):
    def names(self):
        return sorted(self)


class Template(Formatter):
    def render(self, text):
        return self.format(text, "world")


class Checked(UserDict):
    def __init__(self):
        super().__init__()


def build():
    return Settings().names()


def render():
    return Template().render("{0}")


def check():
    return Checked()


build()
render()
check()
