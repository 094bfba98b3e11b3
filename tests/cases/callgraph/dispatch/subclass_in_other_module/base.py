class Greeter:
    def greet(self):
        return self.word()

    def word(self):
        return "hi"
