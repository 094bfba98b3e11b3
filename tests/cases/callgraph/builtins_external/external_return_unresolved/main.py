import re


def first_word(text):
    pattern = re.compile(r"\w+")
    found = pattern.match(text)
    return found.group(0) if found else ""


first_word("hello world")
