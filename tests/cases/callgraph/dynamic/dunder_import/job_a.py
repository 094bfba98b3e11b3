def run():
    return "a"
