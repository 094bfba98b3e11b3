import lazy


def use_missing():
    return lazy.deferred()


def use_defined():
    return lazy.defined()


use_missing()
use_defined()
