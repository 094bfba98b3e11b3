class Money:
    def __init__(self, cents):
        self.cents = cents

    def __lt__(self, other):
        return self.cents < other.cents

    def __gt__(self, other):
        return self.cents > other.cents

    def __add__(self, other):
        return Money(self.cents + other.cents)

    def __radd__(self, other):
        return Money(self.cents + other)


def run():
    wallet = [Money(3), Money(1)]
    sorted(wallet)
    min(wallet)
    max(Money(1), Money(2))
    wallet.sort()
    sum(wallet)
    sorted(wallet, key=id)


run()
