class Key:
    def __hash__(self):
        return 1


class Compared(Key):
    def __eq__(self, other):
        return True


class Restored(Compared):
    __hash__ = Key.__hash__


def run():
    seen = {Key(), Restored()}
    try:
        hash(Compared())
    except TypeError:
        pass
    return seen


run()
