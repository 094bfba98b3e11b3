def transform(s):
    return s[::-1]
