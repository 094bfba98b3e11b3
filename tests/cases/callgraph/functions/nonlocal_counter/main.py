def make_counter():
    count = 0

    def increment():
        nonlocal count
        count = bump(count)
        return count

    return increment


def bump(n):
    return n + 1


counter = make_counter()
counter()
counter()
