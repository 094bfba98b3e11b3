def clean(s):
    return s.lower()
