import actions


def dispatch(name):
    return getattr(actions, name)()


dispatch("start")
