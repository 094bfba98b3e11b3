from dataclasses import dataclass


class Base:
    def __repr__(self):
        return "base"

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 1


@dataclass
class Generated(Base):
    value: int = 0


@dataclass(repr=False, eq=False)
class Inherits(Base):
    value: int = 0


def run():
    repr(Generated())
    Generated() == Generated()
    try:
        hash(Generated())
    except TypeError:
        pass
    repr(Inherits())
    Inherits() == Inherits()
    hash(Inherits())


run()
