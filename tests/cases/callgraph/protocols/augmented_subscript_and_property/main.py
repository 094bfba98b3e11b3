class Grid:
    def __getitem__(self, k):
        return 1

    def __setitem__(self, k, v):
        pass


class Counter:
    def __init__(self):
        self._n = 0

    @property
    def n(self):
        return self._n

    @n.setter
    def n(self, value):
        self._n = value


def bump():
    g = Grid()
    g[0] += 1
    c = Counter()
    c.n += 1
    c._n += 1


bump()
