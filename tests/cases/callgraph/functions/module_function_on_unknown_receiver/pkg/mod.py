def start():
    return None
