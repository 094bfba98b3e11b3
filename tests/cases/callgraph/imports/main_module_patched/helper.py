import sys

import __main__


def install():
    __main__.handler = __main__.replacement
    sys.modules["__main__"].fallback = __main__.replacement
