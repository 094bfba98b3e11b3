def apply(fn, value):
    return fn(value)


def double(x):
    return x * 2


def negate(x):
    return -x


apply(double, 1)
apply(negate, 2)
