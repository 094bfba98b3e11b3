class CachedMethod:
    def __init__(self, func, cache):
        self.func = func
        self.cache = cache

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return BoundCached(self.func, obj)


class BoundCached:
    def __init__(self, func, obj):
        self.func = func
        self.obj = obj

    def __call__(self, *args):
        return self.func(self.obj, *args)


def cachedmethod(cache):
    def decorator(func):
        return CachedMethod(func, cache)
    return decorator


class Car:
    @cachedmethod({})
    def door(self, name):
        return name


Car().door("bob")


class Cached:
    def __init__(self, func):
        self.func = func

    def __get__(self, obj, objtype=None):
        return self

    def __call__(self, *args):
        return self.func(*args)


def cached(func):
    return Cached(func)


class Truck:
    @cached
    def horn(self, sound):
        return sound


Truck.horn(Truck(), "honk")
