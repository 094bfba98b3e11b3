import functools


def fallback():
    return 0


def returns_bound(replacement, fn):
    return replacement


def returns_function(label, fn):
    return fn


def first_of_three(first, second, fn):
    return first


@functools.partial(returns_bound, fallback)
def replaced():
    return 1


@functools.partial(returns_function, "kept")
def kept():
    return 2


@functools.partial(first_of_three, fallback, "unused")
def replaced_too():
    return 3


def run():
    replaced()
    kept()
    replaced_too()


run()
