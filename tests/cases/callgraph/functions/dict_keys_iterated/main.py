def handle():
    return "handled"


def other():
    return "other"


HANDLERS = {"handle": handle}


def run():
    for name in {"other": other}:
        print(name)
    for name in HANDLERS:
        HANDLERS[name]()
    return sorted(HANDLERS)


run()
