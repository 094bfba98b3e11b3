class Notifier:
    def send(self, msg):
        return msg


class EmailNotifier(Notifier):
    def send(self, msg):
        return "mail:" + msg


def alert(notifier: Notifier, msg):
    return notifier.send(msg)


alert(EmailNotifier(), "x")
alert(Notifier(), "y")
