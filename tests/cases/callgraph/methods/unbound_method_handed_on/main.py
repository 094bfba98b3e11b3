class A:
    def who(self):
        return "a"

    def greet(self):
        return self.who()


class B:
    def who(self):
        return "b"


list(map(A.greet, [B()]))
