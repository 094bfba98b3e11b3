ROUTES = {}


def route(path):
    def register(func):
        ROUTES[path] = func
        return func

    return register


class App:
    @route("/")
    def index(self):
        return "home"


App().index()
