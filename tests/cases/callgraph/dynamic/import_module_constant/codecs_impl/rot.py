def encode(text):
    return text[::-1]
