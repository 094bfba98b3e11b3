def apply(fn, value):
    return fn(value)


def inc(x):
    return x + 1


result = apply(lambda v: inc(v) * 2, 3)
