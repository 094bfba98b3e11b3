class Stop(Exception):
    def __init__(self):
        super().__init__("stop")


class Cause(Exception):
    def __init__(self):
        super().__init__("cause")


def halt():
    raise Stop


def chained():
    raise Stop from Cause


for step in (halt, chained):
    try:
        step()
    except Stop:
        pass
