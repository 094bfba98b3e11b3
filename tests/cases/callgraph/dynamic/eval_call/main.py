def area(r):
    return 3.14 * r * r


def evaluate(expr):
    return eval(expr)


evaluate("area(2)")
