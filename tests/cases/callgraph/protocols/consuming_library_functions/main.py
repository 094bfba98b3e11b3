import collections
import functools
import itertools
from itertools import islice


class Nodes:
    def __init__(self, count):
        self.count = count

    def __iter__(self):
        return iter(range(self.count))

    def __len__(self):
        return self.count


def pairs():
    return list(itertools.combinations(Nodes(3), 2))


def grid():
    return list(itertools.product(Nodes(2), Nodes(2)))


def head():
    return islice(Nodes(5), 2)


def longest():
    return itertools.zip_longest(Nodes(1), Nodes(2))


def after_zero():
    return itertools.dropwhile(lambda n: n == 0, Nodes(3))


def total():
    return functools.reduce(lambda a, b: a + b, Nodes(4), 0)


def queue():
    return collections.deque(Nodes(2))


def marks():
    return dict.fromkeys(Nodes(2))


def grown():
    items = []
    items.extend(Nodes(2))
    return items


def merged():
    seen = set()
    seen.update(Nodes(2), Nodes(1))
    return seen


def joined_later():
    return itertools.chain(Nodes(1), Nodes(2))


pairs()
grid()
head()
longest()
after_zero()
total()
queue()
marks()
grown()
merged()
joined_later()
