def outer(items):
    def key(item):
        return item[1]

    def total():
        return sum(key(i) for i in items)

    return total()


outer([("a", 1), ("b", 2)])
