def helper():
    return "real"


def other():
    return "real"
