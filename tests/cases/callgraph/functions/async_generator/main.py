import asyncio


def make(i):
    return i * 10


async def ticks(n):
    for i in range(n):
        yield make(i)


async def consume():
    return [t async for t in ticks(3)]


asyncio.run(consume())
