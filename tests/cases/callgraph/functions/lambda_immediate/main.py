def base():
    return 10


def compute():
    return (lambda k: base() * k)(2)


compute()
