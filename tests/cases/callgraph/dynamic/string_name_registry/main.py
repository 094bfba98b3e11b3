def on_save():
    return "saved"


def on_load():
    return "loaded"


EVENTS = {"save": "on_save", "load": "on_load"}


def fire(event):
    return globals()[EVENTS[event]]()


fire("save")
