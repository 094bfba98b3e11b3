import lazy
from lazy import deferred, defined


def read_missing():
    return lazy.other


def read_defined():
    return lazy.defined


read_missing()
read_defined()
print(deferred, defined)
