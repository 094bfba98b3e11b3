class Box:
    def __init__(self):
        self.name = "default"

    def shout(self):
        return self.name.upper()


def relabel(obj):
    obj.name = b"z"


b = Box()
relabel(b)
b.shout()
