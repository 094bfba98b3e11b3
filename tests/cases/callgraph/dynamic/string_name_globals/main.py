def handle_ping():
    return "pong"


def route(command):
    return globals()["handle_" + command]()


route("ping")
