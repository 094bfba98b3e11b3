import sys


class Loud:
    def speak(self):
        return "LOUD"


class Quiet:
    def speak(self):
        return "quiet"


if sys.maxsize > 2**40:

    def voice():
        return Loud()

else:

    def voice():
        return Quiet()


voice().speak()
