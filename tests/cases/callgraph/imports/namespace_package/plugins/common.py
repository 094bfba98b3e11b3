def split(line, sep):
    return line.split(sep)
