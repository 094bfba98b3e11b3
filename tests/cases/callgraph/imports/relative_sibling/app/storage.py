def save(item):
    return [item]
