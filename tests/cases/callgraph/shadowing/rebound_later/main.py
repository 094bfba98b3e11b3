def greet():
    return "hello"


def run():
    return greet()


def shout():
    return "HELLO"


greet = shout
run()
