from textutil import clean


def clean(s):
    return len(s)


clean(" a ")
