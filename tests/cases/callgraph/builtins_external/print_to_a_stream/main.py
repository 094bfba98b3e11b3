import bisect
import sys


class Log:
    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def flush(self):
        self.parts.append("<flush>")


def to_log():
    print("started", file=Log())


def flushed():
    print("done", file=Log(), flush=True)


def to_stderr():
    print("warning", file=sys.stderr)


def to_stdout():
    print("plain", file=None)


def to_any(stream):
    print("anywhere", file=stream)


def place(numbers, value, key):
    return bisect.bisect_left(numbers, value, key=key)


def run(options):
    to_log()
    flushed()
    to_stderr()
    to_stdout()
    # the stream and the key come from a mapping the index cannot read
    to_any(options["stream"])
    place([1, 2, 3], 2, options["key"])


run({"stream": Log(), "key": abs})
