import asyncio


async def fetch(key):
    await asyncio.sleep(0)
    return transform(key)


def transform(key):
    return key * 2


async def gather_all():
    first = await fetch("a")
    rest = await asyncio.gather(fetch("b"), fetch("c"))
    return [first, *rest]


asyncio.run(gather_all())
