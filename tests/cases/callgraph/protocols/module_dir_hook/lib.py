__all__ = ["public"]


def public():
    return 1


def __dir__():
    return list(__all__)
