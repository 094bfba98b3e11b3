import time


def now():
    return time.time()


def stamp():
    return "t=" + str(now())
