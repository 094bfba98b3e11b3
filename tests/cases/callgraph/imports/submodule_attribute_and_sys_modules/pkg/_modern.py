def run():
    return "modern"
