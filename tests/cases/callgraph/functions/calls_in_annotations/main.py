import postponed

from typing import Annotated


def Field(default=None):
    return default


def bounded(low):
    return int


class Model:
    size: Annotated[int, Field(1)] = 1
    label: bounded(0)

    def resize(self, factor: bounded(1) = 2) -> Annotated[int, Field()]:
        scale: bounded(2) = factor
        return scale


def build():
    model = Model()
    return model.resize()


build()
