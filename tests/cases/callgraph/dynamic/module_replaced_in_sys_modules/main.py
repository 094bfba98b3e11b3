import lazy


def run():
    return lazy.value()


run()
