class Base:
    def greet(self):
        return "base"


class Middle(Base):
    def greet(self):
        return "middle " + super(Middle, self).greet()


class Leaf(Middle):
    def greet(self):
        return super(Middle, self).greet()


Middle().greet()
Leaf().greet()
