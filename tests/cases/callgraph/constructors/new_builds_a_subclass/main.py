class Literal:
    def __new__(cls, text=""):
        if cls is Literal and not text:
            return super().__new__(Empty)  # an Empty: Python then runs Empty.__init__
        return super().__new__(cls)

    def __init__(self, text=""):
        self.text = text


class Empty(Literal):
    def __init__(self, text=""):
        self.text = ""


class Plain:
    def __new__(cls, value):
        made = object.__new__(cls)
        return made

    def __init__(self, value):
        self.value = value


def build():
    Literal("")
    Literal("x")
    Plain(1)


build()
