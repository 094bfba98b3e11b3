class Settings:
    pass


def enable(settings, names):
    for name in names:
        setattr(settings, name, True)
    return settings


enable(Settings(), ["debug", "trace"])
