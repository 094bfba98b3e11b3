def item():
    return "module"


def build():
    values = [item for item in ("a", "b")]
    return values, item()


build()
