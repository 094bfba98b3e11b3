import asyncio


class Ready:
    def __await__(self):
        return iter(())


class Registry(dict):
    def __missing__(self, key):
        return key.upper()


class Checked(type):
    def __instancecheck__(cls, obj):
        return obj == "yes"


class Marker(metaclass=Checked):
    pass


class Generic:
    def __class_getitem__(cls, item):
        return cls


async def wait():
    await Ready()


def run():
    asyncio.run(wait())
    names = Registry()
    names["a"]
    Generic[int]
    return isinstance("yes", Marker)


run()
