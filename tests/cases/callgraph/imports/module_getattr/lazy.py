def loaded():
    return "loaded"


def defined():
    return "defined"


def __getattr__(name):
    if name == "deferred":
        return loaded
    raise AttributeError(name)
