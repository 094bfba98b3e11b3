def keep():
    return 0


def drop():
    return 0


from helper import *  # noqa: E402

keep()
drop()
