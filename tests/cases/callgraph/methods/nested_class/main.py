class Outer:
    class Inner:
        def value(self):
            return 1

    def make(self):
        return self.Inner().value()


Outer().make()
