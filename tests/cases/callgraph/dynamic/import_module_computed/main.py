import importlib


def backend(name):
    module = importlib.import_module("backends." + name)
    return module.connect()


backend("memory")
