def trim(s):
    return s[1:-1]


def bang(s):
    return s + "!"


PIPELINE = [trim, bang]


def clean(text):
    for step in PIPELINE:
        text = step(text)
    return text


clean("  Hi ")
