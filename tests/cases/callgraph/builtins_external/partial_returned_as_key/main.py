import functools


def natural_key(value, reverse=False):
    return value


def keygen(reverse=False):
    return functools.partial(natural_key, reverse=reverse)


def ordered(items):
    return sorted(items, key=keygen())


def ordered_direct(items):
    return sorted(items, key=functools.partial(natural_key, reverse=True))


def call_partial():
    bound = functools.partial(natural_key, 5)
    return bound()


ordered([2, 1])
ordered_direct([2, 1])
call_partial()
