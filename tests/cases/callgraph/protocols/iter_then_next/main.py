class Countdown:
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current


class Cursor:
    def __next__(self):
        return "row"


class Table:
    def __iter__(self):
        return Cursor()


class Word:
    def upper(self):
        return "WORD"


class Sentence:
    def __iter__(self):
        yield Word()


def run():
    countdown = iter(Countdown(3))
    next(countdown)
    rows = iter(Table())
    next(rows)
    words = iter(Sentence())
    next(words)


run()
