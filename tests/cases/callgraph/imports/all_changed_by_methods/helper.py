__all__ = ["drop"]
__all__.append("keep")
__all__.insert(0, "other")
__all__.remove("drop")


def keep():
    return 1


def drop():
    return 2


def other():
    return 3
