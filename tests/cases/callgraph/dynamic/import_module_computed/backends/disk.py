def connect():
    return None
