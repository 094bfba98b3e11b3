def run():
    return "legacy"
