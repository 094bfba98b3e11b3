class Base:
    def __init__(self, name):
        self.name = name


class Named(Base):
    def describe(self):
        return self.name


def make():
    return Named("n")


make().describe()
