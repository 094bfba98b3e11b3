class Options:
    def __init__(self):
        self.verbose = False


def load(opts):
    vars(opts)["verbose"] = True
    return opts


load(Options())
