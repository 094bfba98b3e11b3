def load():
    return 1


def save():
    return 2


def clear():
    return 3


handlers = {"load": load}
handlers.update({"save": save})
handlers.update(clear=clear)
handlers["save"]()

stack = [load]
stack.pop()()
