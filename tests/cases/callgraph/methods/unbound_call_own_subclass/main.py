class A:
    def who(self):
        return "a"

    def greet(self):
        return self.who()


class C(A):
    def greet(self):
        return A.greet(self)


C().greet()
