class Task:
    def run(self):
        return "ran"


class Step:
    def run(self):
        return "stepped"


def make():
    return Task()


def first():
    return 1


def second():
    return 2


def run_all():
    for task in sorted([Task(), Task()], key=id):
        task.run()
    for position, step in enumerate([Step()], 1):
        step.run()
    for made in map(lambda n: make(), range(2)):
        made.run()
    for action in reversed((first, second)):
        action()
    for action in list(filter(None, [first])):
        action()


run_all()
