def original():
    return "original"


def replacement():
    return "replacement"


globals()["original"] = replacement
original()
