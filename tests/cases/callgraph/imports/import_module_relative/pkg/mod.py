import importlib


def g():
    return "g"


def sibling():
    return importlib.import_module(".other", __package__).h()
