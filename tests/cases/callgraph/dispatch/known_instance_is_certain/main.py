class Base:
    def describe(self):
        return "base"


class Derived(Base):
    def describe(self):
        return "derived"


def show():
    b = Base()
    return b.describe()


show()
