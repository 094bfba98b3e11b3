import asyncio


class Stream:
    def __init__(self):
        self.left = 2

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.left == 0:
            raise StopAsyncIteration
        self.left -= 1
        return self.left


async def drain():
    async with Stream() as s:
        async for _ in s:
            pass


asyncio.run(drain())
