def public():
    return 1


def _private():
    return 2
