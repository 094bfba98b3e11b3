def label():
    return "module"


def make():
    def label():
        return "enclosing"

    class Inner:
        before = label()

        def label(self):
            return "method"

    class Reader:
        seen = label()

    return Inner, Reader


class Widget:
    title = label()

    def label(self):
        return "method"

    after = label(None)


make()
