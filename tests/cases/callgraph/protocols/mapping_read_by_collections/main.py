from collections import OrderedDict, defaultdict


class Mapping:
    def __init__(self, data):
        self._data = data

    def keys(self):
        return self._data.keys()

    def __getitem__(self, key):
        return self._data[key]


defaultdict(int, Mapping({1: 2}))
OrderedDict(Mapping({3: 4}))
d = {}
d.update(Mapping({5: 6}))
