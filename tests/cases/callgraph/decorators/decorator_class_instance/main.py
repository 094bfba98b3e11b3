class Counted:
    def __init__(self, func):
        self.func = func
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return self.func(*args)


@Counted
def double(x):
    return 2 * x


double(3)
