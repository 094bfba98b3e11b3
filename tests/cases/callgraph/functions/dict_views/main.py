def save():
    return "saved"


def load():
    return "loaded"


def fallback():
    return "fallback"


def close():
    return "closed"


ACTIONS = {"save": save}
ACTIONS["load"] = load


def run():
    for action in ACTIONS.values():
        action()
    for name, action in ACTIONS.items():
        action()
    ACTIONS.get("save", fallback)()
    for name, action in {"close": close}.items():
        action()


run()
