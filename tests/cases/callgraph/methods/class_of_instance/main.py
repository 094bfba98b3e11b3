class Node:
    def __init__(self, name):
        self.name = name

    def clone(self):
        return self.__class__(self.name)

    def copy(self):
        return type(self)(self.name)

    def describe(self):
        return type(self).kind(self)

    def kind(self):
        return "node"


class Leaf(Node):
    def __init__(self, name):
        super().__init__(name)

    def kind(self):
        return "leaf"


def exact():
    leaf = Leaf("a")
    return type(leaf)("b"), leaf.__class__("c")


def main():
    Node("n").clone()
    Leaf("l").copy()
    Leaf("l").describe()
    exact()


main()
