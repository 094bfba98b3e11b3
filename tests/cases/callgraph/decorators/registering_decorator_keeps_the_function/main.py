MODES = {}


def mode(function):
    MODES[function.__name__.upper()] = function
    return function


def plain(function):
    return function


@mode
def grid(text):
    return f"[{text}]"


@mode
def vertical(text):
    return text


@plain
def shout(text):
    return text.upper()


class Events:
    def __init__(self):
        self.handlers = []

    def register(self, function):
        self.handlers.append(function)
        return function

    def fire(self):
        for handler in list(self.handlers):
            handler()


events = Events()


@events.register
def on_start():
    return "started"


def formatter(name):
    table = dict(sorted(MODES.items()))
    return table[name.upper()]


def render(name, text):
    return formatter(name)(text)


def run():
    shout("a")
    grid("b")
    render("grid", "c")
    on_start()
    events.fire()


run()
