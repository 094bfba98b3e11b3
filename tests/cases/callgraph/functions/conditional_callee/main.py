import sys


def fast(x):
    return x


def safe(x):
    return x


def run(x):
    return (fast if len(sys.argv) > 5 else safe)(x)


run(1)
