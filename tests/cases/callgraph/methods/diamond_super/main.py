class A:
    def setup(self):
        return ["A"]


class B(A):
    def setup(self):
        return ["B"] + super().setup()


class C(A):
    def setup(self):
        return ["C"] + super().setup()


class D(B, C):
    def setup(self):
        return ["D"] + super().setup()


D().setup()
B().setup()
