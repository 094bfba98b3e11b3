def encode(value):
    return repr(value)
