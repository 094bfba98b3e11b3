import contextlib


@contextlib.contextmanager
def opened(name):
    log("open " + name)
    yield name
    log("close " + name)


def log(msg):
    return msg


with opened("f") as f:
    log(f)
