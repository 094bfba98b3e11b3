def first():
    return 1


def second():
    return 2


def third():
    return 3


handlers = {"first": first}
handlers.update({"second": second})
handlers.update(third=third)
handlers["second"]()

stack = [first]
stack.pop()()
