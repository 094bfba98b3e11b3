def make_base():
    def length(self):
        return 0

    def assign(self, name, value):
        object.__setattr__(self, name, value)

    return type("Base", (), {"__len__": length, "__setattr__": assign})


Base = make_base()


class Sized(Base):
    @property
    def size(self):
        return len(self)

    @size.setter
    def size(self, value):
        pass


def use():
    sized = Sized()
    sized.size = 2
    return len(sized)


use()
