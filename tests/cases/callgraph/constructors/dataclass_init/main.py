from dataclasses import dataclass


class Node:
    def __init__(self):
        self.children = []


@dataclass
class Leaf(Node):
    name: str = ""  # @dataclass writes Leaf.__init__, which does not call Node.__init__


@dataclass
class Checked(Node):
    value: int = 0

    def __post_init__(self):  # the written __init__ calls it
        self.value = abs(self.value)


@dataclass(init=False)
class Manual(Node):
    tag: str = ""  # no __init__ written: Node.__init__ runs


@dataclass
class Own(Node):
    size: int = 0

    def __init__(self, size):  # a class's own __init__ wins over the written one
        super().__init__()
        self.size = size


def build():
    Leaf("a")
    Checked(-1)
    Manual()
    Own(2)


build()
