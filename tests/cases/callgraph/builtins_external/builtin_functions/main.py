def summary(values):
    n = len(values)
    top = max(values)
    items = list(enumerate(sorted(values)))
    print(n, top, items, isinstance(top, int))
    return str(n)


summary([3, 1, 2])
