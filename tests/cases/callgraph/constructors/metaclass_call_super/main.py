class Registry(type):
    def __call__(cls, *args, **kwargs):
        instance = super().__call__(*args, **kwargs)
        return instance


class Service(metaclass=Registry):
    def __init__(self):
        self.started = True

    def run(self):
        return "ran"


class Worker(Service):
    def __init__(self):
        super().__init__()


Service().run()
Worker()
