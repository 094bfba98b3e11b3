import pkg.sub.mod


def go():
    return pkg.sub.mod.ping()


go()
