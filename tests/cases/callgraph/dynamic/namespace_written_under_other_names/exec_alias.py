from builtins import exec as run_code


def f():
    return "f"


def g():
    return "g"


run_code("f = g")


def run():
    return f()
