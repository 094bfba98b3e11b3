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


def formatter(name):
    table = dict(sorted(MODES.items()))
    return table[name.upper()]


def render(name, text):
    return formatter(name)(text)


def run():
    shout("a")
    grid("b")
    render("grid", "c")


run()
