class Flag:
    def __init__(self, on):
        self.on = on

    def __bool__(self):
        return self.on

    def __len__(self):
        return 7


class Box:
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)


def branch():
    flag = Flag(True)
    if flag:
        return "on"
    return "off"


def loop():
    box = Box([1])
    while box:
        box.items.pop()
    return "empty"


def negated():
    return not Flag(False)


def combined():
    flag = Flag(True)
    return flag and Box([]) or "neither"


def chosen():
    return "yes" if Box([1]) else "no"


def checked():
    flag = Flag(True)
    assert flag
    return [x for x in (1, 2) if flag]


def tested(value):
    if value:
        return 1
    return 0


def main():
    branch()
    loop()
    negated()
    combined()
    chosen()
    checked()
    tested(Box([1]))


main()
