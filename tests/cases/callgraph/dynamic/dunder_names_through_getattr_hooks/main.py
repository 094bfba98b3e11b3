import lib


class Proxy:
    def __getattr__(self, name):
        return "proxied"


def version():
    return lib.__version__


def module_name():
    return lib.__name__


def named(obj):
    return getattr(obj, "__name__", None)


def own_dict(obj):
    return obj.__dict__


version()
module_name()
named(Proxy())
own_dict(Proxy())
