class Vec:
    def __iadd__(self, other):
        return self


class Other:
    def __iadd__(self, other):
        return self


class Plain:
    def __add__(self, other):
        return self


v = Vec()
if v is not None:
    v += 1
items = []
items += [1]
o = Other()
o += 1
p = Plain()
p += 1
