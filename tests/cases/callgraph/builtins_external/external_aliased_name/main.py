from collections import OrderedDict as OD
from itertools import chain as flatten


def build(groups):
    return OD((k, list(flatten(v))) for k, v in groups)


build([("a", [[1], [2]])])
