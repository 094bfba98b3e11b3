def check(item):
    return bool(item)
