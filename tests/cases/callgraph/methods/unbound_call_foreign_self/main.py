class A:
    def who(self):
        return "a"

    def greet(self):
        return self.who()

    @classmethod
    def greet_as(cls, other):
        return cls.greet(other)


class B:
    def who(self):
        return "b"


A.greet(B())
A.greet_as(B())
A().greet()
