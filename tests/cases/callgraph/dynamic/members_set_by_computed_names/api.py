def get():
    return "get"


def put():
    return "put"
