class Reader:
    def read(self):
        return "r"


class Writer:
    def write(self, data):
        return len(data)


class File(Reader, Writer):
    pass


f = File()
f.write(f.read())
