import lib

import plain


def listing():
    return dir(lib), dir(plain)


listing()
