def a():
    return 1


def b():
    return 2


class K:
    def __init__(self):
        self.__fn = a

    def run(self):
        return self.__fn()


class L(K):
    def __init__(self):
        super().__init__()
        self.__fn = b

    def again(self):
        return self.__fn()


L().run()
L().again()
