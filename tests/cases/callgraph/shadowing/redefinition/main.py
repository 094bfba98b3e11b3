def parse(text):
    return text


def parse(text):
    return len(text)


parse(" x ")
