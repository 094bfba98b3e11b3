import core


def fake():
    return "fake"


def install(module):
    module.load = fake


def patch(target, name, value):
    setattr(target, name, value)


def run():
    install(core)
    patch(core, "save", fake)
    core.sync()


run()
