def make_multiplier(k):
    def multiply(x):
        return scale(x, k)

    return multiply


def scale(x, k):
    return x * k


triple = make_multiplier(3)
triple(4)
