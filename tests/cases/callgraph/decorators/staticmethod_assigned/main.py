import os.path


def helper(value):
    return value


def other(value):
    return value


def create(cls, value):
    return value(cls)


class Tool:
    run = staticmethod(helper)

    def go(self):
        return self.run(1)


class Special(Tool):
    run = staticmethod(other)


class Point:
    def __init__(self, x):
        self.x = x


class Factory:
    make = staticmethod(Point)
    build = classmethod(create)
    join = staticmethod(os.path.join)


class Method:
    def _impl(value):
        return value

    run = staticmethod(_impl)  # a function of the class body: not followed (its first parameter)


def exact():
    Tool.run(2)
    Factory().make(1)
    Factory.join("a", "b")
    Factory.build(helper)
    Factory().build(helper)
    return Tool().run(3)


def dispatched(tool):
    return tool.go()


exact()
dispatched(Tool())
dispatched(Special())
Method.run(4)
