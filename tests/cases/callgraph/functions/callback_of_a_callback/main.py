def leaf():
    return "leaf"


def apply(action):
    return action()


def hand(apply_with):
    return apply_with(leaf)


hand(apply)
