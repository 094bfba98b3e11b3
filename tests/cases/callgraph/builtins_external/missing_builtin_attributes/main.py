class Connection:
    def cursor(self):
        return "cursor"


class Registry:
    def get(self, key):
        return key


class Pool:
    def __init__(self):
        self.connection = None

    def open(self):
        self.connection = Connection()

    def query(self):
        return self.connection.cursor()  # None has no cursor: only Connection's


def lookup(flag):
    table = [] if flag else Registry()
    return table.get("key") if not flag else None  # a list has no get: only Registry's


def label(flag):
    name = "text" if flag else Registry()
    return name.get("key")  # a str has none either, but an instance may be of a str subclass


class Cached:
    def lookup(self, key):
        return super().get(key)  # object has no get: the class of self is another, a subclass


class Store(Cached, dict):
    pass


def run():
    pool = Pool()
    pool.open()
    pool.query()
    lookup(False)
    label(False)
    Store(key=1).lookup("key")


run()
