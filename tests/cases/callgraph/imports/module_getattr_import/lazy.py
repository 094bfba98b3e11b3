def _load():
    return "loaded"


def defined():
    return "defined"


def __getattr__(name):
    if name in ("deferred", "other"):
        return _load()
    raise AttributeError(name)
