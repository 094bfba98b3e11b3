def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def depth(tree):
    return 1 + max((depth(c) for c in tree), default=0)


is_even(4)
depth([[], [[]]])
