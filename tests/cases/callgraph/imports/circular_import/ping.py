import pong


def ping(n):
    if n:
        pong.pong(n - 1)
