import functools

CALLS = []


def track(func):
    CALLS.append(func.__name__)
    return func


class Repo:
    @staticmethod
    @track
    @functools.lru_cache
    def lookup(key):
        return key * 2


Repo.lookup(2)
