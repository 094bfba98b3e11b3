import importlib


def run():
    module = importlib.import_module(".mod", "pkg")
    module.g()
    module.sibling()
    top = __import__("pkg.other")
    top.describe()
    plain = __import__("pkg")
    plain.describe()


run()
