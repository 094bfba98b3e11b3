from ..util import clean


def work():
    return clean("ABC")
