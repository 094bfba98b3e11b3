def default_timeout():
    return 30


def connect(host, timeout=default_timeout()):
    return host, timeout


connect("h")
