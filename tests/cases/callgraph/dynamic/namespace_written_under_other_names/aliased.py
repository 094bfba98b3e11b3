def f():
    return "f"


def g():
    return "g"


namespace = globals()
namespace["f"] = g


def run():
    return f()
