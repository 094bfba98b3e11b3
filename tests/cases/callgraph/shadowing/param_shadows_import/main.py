from helpers import transform


def run(data, transform):
    return transform(data)


def upper(s):
    return s + s


run("x", upper)
transform("y")
