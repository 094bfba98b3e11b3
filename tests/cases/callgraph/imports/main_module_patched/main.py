import helper


def original():
    return "original"


def replacement():
    return "replacement"


def steady():
    return "steady"


handler = original
fallback = original


def run():
    helper.install()
    handler()
    fallback()
    steady()


run()
