import lib


def read(name):
    return getattr(lib, name)


def read_known():
    return getattr(lib, "old")


def read_present():
    return getattr(lib, "present")


read("old")
read_known()
read_present()


class Lazy:
    def __getattr__(self, name):
        return name


def read_lazy(obj, name):
    return getattr(obj, name)


read_lazy(Lazy(), "anything")
