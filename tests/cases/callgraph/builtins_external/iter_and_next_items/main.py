def first():
    return 1


def fallback():
    return 0


class Queue:
    def __init__(self):
        self.jobs = [first]

    def __iter__(self):
        return iter(self.jobs)


def run():
    for job in Queue():
        job()
    pending = iter([first])
    next(pending, fallback)()


run()
