class Ticker:
    def __init__(self, ticks):
        self.ticks = list(ticks)

    def __iter__(self):
        return self

    def __next__(self):
        if not self.ticks:
            raise StopIteration
        return self.ticks.pop()


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
    ticker = iter(Ticker("abc"))
    next(ticker)
    rows = iter(Table())
    next(rows)
    words = iter(Sentence())
    next(words)


run()
