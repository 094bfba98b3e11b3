def fmt(x):
    return str(x)


def report(x):
    fmt = lambda v: "<" + repr(v) + ">"
    return fmt(x)


report(1)
