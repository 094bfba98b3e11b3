def helper():
    return "from __getattr__"


class Proxy:
    def __init__(self):
        self.stored = helper

    def __getattr__(self, name):
        return helper

    def real(self):
        return "real"


class AttrDict(dict):
    def __getattr__(self, name):
        return helper


class Base:
    def __getattr__(self, name):
        return helper

    def run(self):
        return self.step()


class Stepper(Base):
    def step(self):
        return "stepped"


def use_proxy():
    return Proxy().missing()


def use_known():
    proxy = Proxy()
    proxy.real()
    return proxy.stored()


def use_dict():
    return AttrDict().anything()


def use_dict_method():
    return AttrDict().keys()


def use_base():
    Base().run()
    Stepper().run()


use_proxy()
use_known()
use_dict()
use_dict_method()
use_base()
