class Empty:
    def ping(self):
        return "pong"


def build():
    e = Empty()
    return e.ping()


build()
