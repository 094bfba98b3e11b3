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


class Legacy(type):
    def __call__(cls, *args, **kwargs):
        return super(Legacy, cls).__call__(*args, **kwargs)


class Old(metaclass=Legacy):
    def __init__(self):
        self.ready = True


Old()
