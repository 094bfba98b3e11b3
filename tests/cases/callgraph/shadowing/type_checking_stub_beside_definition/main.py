from typing import TYPE_CHECKING

if TYPE_CHECKING:

    def Lazy(name: str) -> str: ...

else:

    class Lazy:
        def __init__(self, name):
            self.name = name


if TYPE_CHECKING:

    class Handle:
        def close(self) -> None: ...

else:

    def Handle():
        return open_handle()


def open_handle():
    return 1


def make():
    return Lazy("x"), Handle()


make()
