class A:
    def act(self):
        return "a"


class B:
    def act(self):
        return "b"


class Holder:
    def __init__(self, **kw):
        self.item = A()
        for k, v in kw.items():
            setattr(self, k, v)

    def use(self):
        return self.item.act()


Holder(item=B()).use()
