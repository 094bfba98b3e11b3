class Query:
    def filter(self):
        return Filtered()

    def run(self):
        return "query"


class Filtered:
    def run(self):
        return "filtered"

    def more(self):
        return self


class Text:
    def strip(self):
        return Stripped()


class Stripped:
    def upper(self):
        return "STRIPPED"


def chained():
    q = Query()
    q = q.filter()
    return q.run()


def parameter(s: Text):
    s = s.strip()
    return s.upper()


def branches(flag):
    q = Query()
    if flag:
        q = q.filter()
    return q.run()


def in_loop(items):
    q = Query()
    for _ in items:
        q.run()
        q = Filtered()
    return q.run()


def walrus(flag):
    q = Filtered()
    if flag and (q := Query()):
        pass
    return q.run()


def closure():
    q = Query()

    def swap():
        nonlocal q
        q = Filtered()

    swap()
    return q.run()


def swapped():
    a, b = Query(), Filtered()
    a, b = b, a
    return a.more()


chained()
parameter(Text())
branches(True)
branches(False)
in_loop([1, 2])
walrus(True)
walrus(False)
closure()
swapped()
