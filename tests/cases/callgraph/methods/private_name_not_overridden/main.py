class Base:
    def __helper(self):
        return 1

    def run(self):
        return self.__helper()


class Child(Base):
    def __helper(self):
        return 2

    def go(self):
        return self.__helper()


Child().run()
Child().go()
