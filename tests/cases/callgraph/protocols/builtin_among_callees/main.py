class Checker:
    def __init__(self, checks):
        self.checks = checks

    def __repr__(self):
        return "Checker()"

    def __len__(self):
        return len(self.checks)

    def run(self, name):
        fn = self.checks[name]
        return fn(self)


def is_ready(checker):
    return isinstance(checker, Checker)


def sized(value):
    return len(value)


checker = Checker({"ready": is_ready, "shown": repr})
checker.run("ready")
checker.run("shown")
measure = sized if checker.checks else len
measure(checker)
