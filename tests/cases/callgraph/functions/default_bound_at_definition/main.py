def first():
    return 1


def second():
    return 2


handler = first


def use(callback=handler):
    return callback()


class Holder:
    action = first

    def run(self, callback=action):
        return callback()

    action = second


handler = second
use()
Holder().run()
