class LogMixin:
    def handle(self, x):
        return super().handle(x) + 1


class Handler:
    def handle(self, x):
        return x


class LoggedHandler(LogMixin, Handler):
    pass


LoggedHandler().handle(1)
