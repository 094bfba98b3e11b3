def connect():
    return {}
