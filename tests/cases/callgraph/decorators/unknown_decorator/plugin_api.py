import random


def hook(func):
    wrappers = [func, func]
    return random.choice(wrappers)
