class Closed:
    def toggle(self):
        self.__class__ = Opened

    def state(self):
        return "closed"


class Opened(Closed):
    def state(self):
        return "opened"


class Steady:
    def state(self):
        return "steady"


def run():
    door = Closed()
    door.toggle()
    door.state()
    Steady().state()


run()
