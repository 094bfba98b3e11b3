from functools import cache


@cache
def settings():
    return load()


def load():
    return {"debug": True}


settings()
settings()
