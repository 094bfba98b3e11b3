class User:
    def __init__(self, name):
        self.name = name

    def greeting(self):
        return "hi " + self.name
