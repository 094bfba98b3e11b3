from typing import overload


class Box:
    def open(self):
        return "open"


@overload
def make(kind: int) -> Box: ...
@overload
def make(kind: str) -> Box: ...
def make(kind):
    return Box()


class Shelf:
    @overload
    def take(self, index: int) -> Box: ...
    @overload
    def take(self, index: slice) -> list[Box]: ...
    def take(self, index):
        return Box()


make(1).open()
Shelf().take(0).open()
