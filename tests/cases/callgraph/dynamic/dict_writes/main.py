class Record:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def stamp(record, key):
    record.__dict__[key] = True
    return record


stamp(Record(name="x"), "seen")
