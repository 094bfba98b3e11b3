def first():
    return 1


def second():
    return 2


def third():
    return 3


class Steps:
    def __init__(self):
        self.done = False

    def __iter__(self):
        self.done = False
        return self

    def __next__(self):
        if self.done:
            raise StopIteration
        self.done = True
        return first


class Table:
    def __getitem__(self, key):
        return second


class Lazy:
    def __iter__(self):
        yield third


def run():
    for step in Steps():
        step()
    Table()["any"]()
    for item in Lazy():
        item()


run()
