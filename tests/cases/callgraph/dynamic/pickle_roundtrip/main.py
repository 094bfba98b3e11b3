import pickle


def rebuild(items):
    return Basket(items)


class Basket:
    def __init__(self, items):
        self.items = list(items)

    def __reduce__(self):
        return (rebuild, (self.items,))


def roundtrip(basket):
    return pickle.loads(pickle.dumps(basket))


roundtrip(Basket([1, 2]))
