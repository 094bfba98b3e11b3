def parse(line):
    return line.split("=")


def read_pairs(lines):
    for line in lines:
        if line:
            yield parse(line)


for key, value in read_pairs(["a=1", "", "b=2"]):
    pass
