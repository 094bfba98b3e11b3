def encode(x):
    return str(x)


def decode(x):
    return int(x)


def codec():
    return encode, decode


enc, dec = codec()
dec(enc(5))
