class Counter:
    def __init__(self):
        self.n = 0

    def bump(self):
        self.n += 1


c = Counter()
tick = c.bump
tick()
tick()
