def step():
    return 0


def first():
    return 1


def second():
    return 2


def run_all():
    out = []
    for step in (first, second):
        out.append(step())
    return out


run_all()
