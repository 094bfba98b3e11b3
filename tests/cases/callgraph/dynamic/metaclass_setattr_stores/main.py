def real():
    return "real"


def wrapped():
    return "wrapped"


class Meta(type):
    def __setattr__(cls, name, value):
        super().__setattr__(name, staticmethod(wrapped))


class C(metaclass=Meta):
    pass


C.hook = staticmethod(real)
C.hook()
