class AppError(Exception):
    def describe(self):
        return "app"

    def code(self):
        return 1


class NotFound(AppError):
    def describe(self):
        return "not found"


def lookup(key):
    if key:
        raise NotFound()
    raise AppError()


def handle(key):
    try:
        lookup(key)
    except AppError as error:
        return error.describe(), error.code()
    except ValueError as error:
        return str(error)


handle(True)
handle(False)


def after(callback):
    error = callback
    try:
        lookup(callback)
    except AppError as error:
        return error.code()
    return error()


def ready():
    return 0


after(ready)
