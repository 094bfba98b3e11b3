class Positive:
    slot = "_value"

    def __get__(self, instance, owner=None):
        return getattr(instance, self.slot)

    def __set__(self, instance, value):
        setattr(instance, self.slot, abs(value))


class Account:
    balance = Positive()

    def deposit(self, amount):
        self.balance = amount


Account().deposit(-5)
