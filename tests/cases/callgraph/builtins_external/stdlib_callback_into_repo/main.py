import functools


def add(a, b):
    return a + b


total = functools.reduce(add, [1, 2, 3])
