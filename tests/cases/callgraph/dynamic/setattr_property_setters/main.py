class Table:
    def __init__(self):
        self._align = "l"

    @property
    def align(self):
        return self._align

    @align.setter
    def align(self, value):
        self._align = value

    def set_named(self, value):
        setattr(self, "align", value)

    def set_options(self, **options):
        for option, value in options.items():
            setattr(self, option, value)


t = Table()
t.set_named("r")
t.set_options(align="c")
