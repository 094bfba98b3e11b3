class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current

    def __len__(self):
        return self.current


class Bag:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)


def to_list():
    return list(Countdown(3))


def to_set():
    return set(Countdown(2))


def lazily():
    return enumerate(Countdown(2))


def largest():
    return max(Countdown(2), default=None)


def joined():
    return ",".join(Bag(["a", "b"]))


to_list()
to_set()
lazily()
largest()
joined()
