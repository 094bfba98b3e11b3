def load():
    return [1, 2]


def total(values):
    return sum(values)


reader = load
if (summer := total) is not None:
    summer(reader())
