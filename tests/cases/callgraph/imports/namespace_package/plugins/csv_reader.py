from plugins.common import split


def read(line):
    return split(line, ",")
