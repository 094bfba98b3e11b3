def square(x):
    return x * x


def cube(x):
    return x**3
