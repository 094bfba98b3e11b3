import core


def fake():
    return "fake"


def install(module):
    module.fetch = fake


def patch(target, name, value):
    setattr(target, name, value)


def run():
    install(core)
    patch(core, "store", fake)
    core.process()


run()
