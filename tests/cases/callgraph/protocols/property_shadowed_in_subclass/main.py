class Base:
    @property
    def size(self):
        return 1

    @property
    def name(self):
        return "base"

    @property
    def label(self):
        return "label"

    def show(self):
        return self.size, self.name, self.label


class PlainSize(Base):
    size = 3


class MethodName(Base):
    def name(self):
        return "method"


class Counter:
    def __get__(self, obj, owner=None):
        return 1

    def __set__(self, obj, value):
        pass


class Counted:
    count = Counter()

    def read(self):
        return self.count


class Uncounted(Counted):
    count = 5


def run():
    Base().show()
    PlainSize().show()
    MethodName().show()
    Uncounted().read()
    Counted().read()


run()
