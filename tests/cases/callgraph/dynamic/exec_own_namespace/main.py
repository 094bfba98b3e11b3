def greet():
    return "hello"


def install(code):
    exec(code)


install("global greet\ndef greet():\n    return 'replaced'")
greet()
