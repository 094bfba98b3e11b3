def f():
    return "f"


names = sorted(dict(globals()))


def run():
    return f()
