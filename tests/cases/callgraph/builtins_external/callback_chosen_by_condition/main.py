import sys


def by_value(x):
    return x


def by_negation(x):
    return -x


def run(items, reverse=False):
    items.sort(key=(lambda x: -x) if sys.version_info[0] < 3 else (lambda x: x))
    return sorted(items, key=reverse and by_negation or by_value)


run([3, 1, 2])
