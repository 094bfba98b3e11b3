def clean(text):
    return text[::-1]
