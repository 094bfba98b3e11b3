class Version:
    def __init__(self, parts):
        self.parts = parts

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    __hash__ = None


old = Version([1, 0])
new = Version([1, 2])
same = old == new
older = old < new
