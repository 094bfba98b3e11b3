import ping


def pong(n):
    if n:
        ping.ping(n - 1)
