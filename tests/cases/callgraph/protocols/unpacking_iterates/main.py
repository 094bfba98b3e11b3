def by_index():
    return "index"


def by_iteration():
    return "iteration"


class Both:
    def __getitem__(self, position):
        return by_index

    def __iter__(self):
        return iter((by_iteration, by_iteration))


class Pair:
    def __iter__(self):
        return iter((1, 2))


def add(a, b):
    return a + b


def run():
    first, second = Both()
    first()
    add(*Pair())
    return [*Pair()]


run()
