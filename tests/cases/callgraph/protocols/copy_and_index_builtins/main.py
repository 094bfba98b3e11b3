import copy


class Flag:
    def __index__(self):
        return 5


class Config:
    def __init__(self):
        self.values = {}

    def __copy__(self):
        return Config()

    def __deepcopy__(self, memo):
        return Config()


class Plain:
    pass


def numbers():
    flag = Flag()
    return hex(flag), oct(flag), bin(flag)


def copies():
    config = Config()
    return copy.copy(config), copy.deepcopy(config), copy.copy(Plain())


def copies_with(memo):
    return copy.deepcopy(Config(), memo)


numbers()
copies()
copies_with({})
