class Job:
    def run(self):
        return "ran"


def first():
    return 1


def second():
    return 2


def dispatch(message):
    match message:
        case {"handler": handler}:
            return handler()
        case [head, *_]:
            return head()
        case Job() | None as job:
            return job
        case other:
            return other.run()


dispatch({"handler": first})
dispatch([second])
dispatch(Job())
