class Account:
    def __init__(self):
        self._balance = 0

    @property
    def balance(self):
        return self._balance

    @balance.setter
    def balance(self, value):
        self._balance = check(value)


def check(value):
    return max(value, 0)


acct = Account()
acct.balance = 10
