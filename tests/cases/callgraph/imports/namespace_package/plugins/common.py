def split(line, sep):
    return [part for part in line if part != sep]
