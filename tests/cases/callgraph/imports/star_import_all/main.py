from tools import *


def helper():
    return "local"


print(public(), helper())
