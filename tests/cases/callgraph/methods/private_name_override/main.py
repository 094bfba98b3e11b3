def impl():
    return 0


class Base:
    def __helper(self):
        return 1

    def run(self):
        return self.__helper()


class Child(Base):
    def _Base__helper(self):
        return 2


class Other(Base):
    _Base__helper = staticmethod(impl)


Child().run()
Base().run()
