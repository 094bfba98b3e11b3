def go():
    return None
