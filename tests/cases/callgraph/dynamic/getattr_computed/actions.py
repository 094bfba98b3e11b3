def start():
    return "started"


def stop():
    return "stopped"
