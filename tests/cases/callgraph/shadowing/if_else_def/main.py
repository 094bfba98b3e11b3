import sys

if sys.platform == "win32":
    def sep():
        return "\\"
else:
    def sep():
        return "/"


def join(a, b):
    return a + sep() + b


join("a", "b")
