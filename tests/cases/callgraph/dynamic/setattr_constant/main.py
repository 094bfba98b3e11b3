class Greeter:
    def hello(self):
        return "hello"


def loud(self):
    return "HELLO"


setattr(Greeter, "hello", loud)
Greeter().hello()
