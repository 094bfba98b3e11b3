def __getattr__(name):
    if name == "old":
        return 1
    raise AttributeError(name)


present = 2
