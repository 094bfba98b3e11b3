class Label:
    def __init__(self, text):
        self.text = text

    def shout(self):
        return self.text.upper()


def build(factory):
    return factory(b"raw")


Label("plain").shout()
build(Label).shout()
