class Store:
    def get(self, key):
        return len(key)


class Service:
    def __init__(self):
        self.store = Store()

    def fetch(self, key):
        return self.store.get(key)


Service().fetch("k")
