class Emitter:
    def __init__(self):
        self.listeners = []

    def on(self, fn):
        self.listeners.append(fn)

    def fire(self):
        for fn in self.listeners:
            fn()


def saved():
    return "saved"


e = Emitter()
e.on(saved)
e.fire()
