def quiet(msg):
    return None


def loud(msg):
    return msg + "!"


handler = quiet


def configure():
    global handler
    handler = loud


def emit(msg):
    return handler(msg)


configure()
emit("x")
