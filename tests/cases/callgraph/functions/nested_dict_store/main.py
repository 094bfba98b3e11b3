def first():
    pass


def second():
    pass


def third():
    pass


table = {"a": {"b": first}}
table["a"]["b"] = second
table["a"]["b"]()

registry = {}
registry["x"] = {}
registry["x"]["y"] = third
registry["x"]["y"]()
