import functools


def logged(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        print("calling", func.__name__)
        return func(*args, **kwargs)

    return wrapper


@logged
def add(a, b):
    return a + b


add(1, 2)
