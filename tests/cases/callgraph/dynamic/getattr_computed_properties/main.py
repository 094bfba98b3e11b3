class URL:
    _cmp_attrs = ("scheme", "path")

    def __init__(self, scheme, path):
        self.scheme = scheme
        self._path = path

    @property
    def path(self):
        return self._path

    def __eq__(self, other):
        return all(getattr(self, attr) == getattr(other, attr) for attr in self._cmp_attrs)


URL("a", "b") == URL("a", "b")
