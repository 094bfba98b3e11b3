from tools import *


def _private():
    return 0


total = public() + _private()
