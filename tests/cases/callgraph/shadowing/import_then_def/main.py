from textutil import clean


def clean(s):
    return s.strip()


clean(" a ")
