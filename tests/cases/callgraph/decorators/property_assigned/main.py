def read_size(self):
    return self._size


class Box:
    def __init__(self):
        self._label = ""
        self._size = 0

    def _get_label(self):
        return self._label

    def _set_label(self, value):
        self._label = value

    label = property(_get_label, _set_label)
    size = property(read_size)


class Crate(Box):
    def _get_crate_label(self):
        return "crate"

    label = property(_get_crate_label, Box.label.fset)


def run(box):
    box.label = "x"
    return box.label, box.size


def exact():
    return Box().label


run(Box())
run(Crate())
exact()
