import functools


def traced(method):
    @functools.wraps(method)
    def wrapper(self, *args):
        return method(self, *args)

    return wrapper


class Job:
    @traced
    def run(self):
        return "ran"


Job().run()
