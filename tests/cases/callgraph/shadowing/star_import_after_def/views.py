__all__ = ["render"]


def render():
    return "views"
