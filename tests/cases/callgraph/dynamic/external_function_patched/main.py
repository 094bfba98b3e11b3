import time


class FakeClock:
    def __init__(self):
        self.now = 0

    def time(self):
        self.now += 1
        return self.now


def elapsed():
    start = time.time()
    return time.time() - start


class Patcher:
    def setattr(self, target, name, value):
        setattr(target, name, value)


def test_elapsed(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr(time, "time", clock.time)
    return elapsed()


elapsed()
test_elapsed(Patcher())
