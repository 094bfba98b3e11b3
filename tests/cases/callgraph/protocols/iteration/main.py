class Batch:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        for item in self.items:
            yield check(item)


def check(item):
    return item


for entry in Batch([1, 2]):
    pass
