class Validator:
    def __init__(self, limit):
        self.limit = limit

    def __call__(self, value):
        return within(value, self.limit)


def within(value, limit):
    return value <= limit


check = Validator(10)
check(3)
