class Loader:
    def load(self, name):
        return name

    def load_twice(self, name):
        return [self.load(name), self.load(name)]


class Plain:
    def greet(self):
        return "hello"

    def greet_loudly(self):
        return self.greet().upper()


def shouting(self, name):
    return name.upper()


Shouting = type("Shouting", (Loader,), {"load": shouting})
Shouting().load_twice("x")
Plain().greet_loudly()
