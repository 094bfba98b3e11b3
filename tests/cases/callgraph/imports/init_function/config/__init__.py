from config.defaults import DEFAULTS


def load():
    return dict(DEFAULTS)
