def strip(s):
    return s.strip()


def lower(s):
    return s.lower()


PIPELINE = [strip, lower]


def clean(text):
    for step in PIPELINE:
        text = step(text)
    return text


clean("  Hi ")
