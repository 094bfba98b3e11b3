def fetch():
    return "fetch"


def store():
    return "store"


def process():
    fetch()
    store()
