def __getattr__(name):
    if name == "__version__":
        return "1.0"
    raise AttributeError(name)
