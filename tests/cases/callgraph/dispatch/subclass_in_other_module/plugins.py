from base import Greeter


class Loud(Greeter):
    def word(self):
        return "HI"
