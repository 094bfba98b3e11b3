import functools

import api


def deprecated(function):
    @functools.wraps(function)
    def shim(*args):
        return function(*args)

    return shim


def logged(cls):
    for name, member in list(vars(cls).items()):
        if callable(member) and not name.startswith("__"):
            setattr(cls, name, deprecated(member))
    return cls


class Checked:
    def __init_subclass__(cls):
        for name in ("withdraw",):
            setattr(cls, name, deprecated(getattr(cls, name)))


@logged
class Bot:
    def on_message(self):
        return "message"


class Account(Checked):
    def withdraw(self):
        return "withdraw"


class Plain:
    def ping(self):
        return "ping"


def replacement():
    return "replacement"


for name in ("get",):
    setattr(api, name, replacement)
vars(api).update(put=replacement)


def run():
    api.get()
    api.put()
    Bot().on_message()
    Account().withdraw()
    Plain().ping()


run()
