def parse(text):
    return text


def parse(text):
    return text.strip()


parse(" x ")
