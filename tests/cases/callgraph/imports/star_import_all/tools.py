__all__ = ["public"]


def public():
    return "public"


def helper():
    return "hidden"
