def index(keys):
    table = dict.fromkeys(keys, 0)
    return str.join(",", table)


index(["a", "b"])
