def run():
    return "module"
