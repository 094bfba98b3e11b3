def initialise(self, label):
    self.label = label


class Tag:
    __init__ = initialise

    def __str__(self):
        return self.label

    def __lt__(self, other):
        return self.label < other.label


class Countdown:
    def __init__(self):
        self.left = 2

    def __iter__(self):
        return self

    def __next__(self):
        if not self.left:
            raise StopIteration
        self.left -= 1
        return self.left


class Settings:
    @property
    def verbose(self):
        return False


def describe(settings):
    return hasattr(settings, "verbose")


def run():
    tags = [Tag("b"), Tag("a")]
    joined = ", ".join(map(str, tags))
    largest = max(tags)
    found = 1 in Countdown()
    return joined, largest, found, describe(Settings())


run()
