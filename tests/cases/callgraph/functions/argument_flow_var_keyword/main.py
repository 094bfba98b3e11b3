def on_start():
    return 1


def on_stop():
    return 2


def named():
    return 3


def run(*, callback=None, **hooks):
    hooks["start"]()
    for hook in hooks.values():
        hook()
    return callback


class Service:
    def __init__(self, **options):
        self.stop = options.get("stop")

    def close(self):
        return self.stop()


run(start=on_start, callback=named)
Service(stop=on_stop).close()
