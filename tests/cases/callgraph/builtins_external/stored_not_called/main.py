class Box:
    pass


def handler():
    return "handled"


def register(registry, box):
    registry.append(handler)
    setattr(box, "callback", handler)
    print(handler)
    return len(str(handler))


def fire(registry, box):
    for function in registry:
        function()
    return box.callback()


registry = []
box = Box()
register(registry, box)
fire(registry, box)
