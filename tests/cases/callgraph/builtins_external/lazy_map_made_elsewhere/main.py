def double(x):
    return x * 2


def is_even(x):
    return x % 2 == 0


def doubled(xs):
    return map(double, xs)


def evens(xs):
    return filter(is_even, xs)


def total(xs):
    return sum(doubled(xs))


def listed(xs):
    items = evens(xs)
    return list(items)


def walk(xs):
    seen = []
    for x in doubled(xs):
        seen.append(x)
    return seen


def nested(xs):
    return list(map(str, doubled(xs)))


def local(xs):
    halves = map(double, xs)
    return list(halves)


def run():
    data = [1, 2, 3]
    total(data)
    listed(data)
    walk(data)
    nested(data)
    local(data)


run()
