def load():
    return "load"


def save():
    return "save"


def sync():
    load()
    save()
