import asyncio


class Reply:
    def text(self):
        return "ok"


class Session:
    async def __aenter__(self):
        return Reply()

    async def __aexit__(self, *exc):
        return False


async def fetch():
    return Reply()


async def run_all():
    awaited = (await fetch()).text()
    pending = fetch()
    pending.close()
    async with Session() as reply:
        reply.text()
    return awaited


asyncio.run(run_all())
