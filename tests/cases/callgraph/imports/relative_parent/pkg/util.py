def clean(text):
    return text.lower()
