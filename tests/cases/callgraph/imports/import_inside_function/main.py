def compute():
    from mathutil import square

    return square(3)


def square(x):
    return -x


print(compute())
