HANDLERS = []


def register(func):
    HANDLERS.append(func)
    return func


@register
def on_start():
    return "started"


on_start()
