def parse(line):
    return len(line)


def read_pairs(lines):
    for line in lines:
        if line:
            yield parse(line)


for size in read_pairs(["a=1", "", "b=2"]):
    pass
