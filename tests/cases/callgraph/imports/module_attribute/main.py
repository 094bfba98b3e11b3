import util


def run():
    return util.double(21)


run()
