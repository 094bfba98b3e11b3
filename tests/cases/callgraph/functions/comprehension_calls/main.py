def norm(x):
    return abs(x)


def keep(x):
    return x > 1


def process(values):
    squares = [norm(v) for v in values if keep(v)]
    lookup = {v: norm(v) for v in values}
    return squares, lookup, any(keep(v) for v in values)


process([-3, 1, 2])
