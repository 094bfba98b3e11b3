import operator
import os


class Sequence:
    def __len__(self):
        return 2

    def __getitem__(self, index):
        if index >= 2:
            raise IndexError(index)
        return index


class Count:
    def __index__(self):
        return 3


class Artifact:
    def __fspath__(self):
        return "/tmp/artifact"


class Amount:
    def __add__(self, other):
        return self

    def __contains__(self, item):
        return True

    def __format__(self, spec):
        return "amount"


class Lazy:
    def __getattr__(self, name):
        raise AttributeError(name)


def run():
    backwards = list(reversed(Sequence()))
    number = int(Count())
    path = os.fspath(Artifact())
    total = operator.add(Amount(), 1)
    found = operator.contains(Amount(), 1)
    text = "{}".format(Amount())
    present = hasattr(Lazy(), "missing")
    return backwards, number, path, total, found, text, present


run()
