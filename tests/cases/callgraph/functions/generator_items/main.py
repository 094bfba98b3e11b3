def load():
    return "load"


def save():
    return "save"


def report():
    return "report"


def steps(count):
    done = 0
    while done < count:
        yield load
        done += 1


def pipeline():
    yield from steps(1)
    yield save


def run():
    for step in steps(2):
        step()
    for stage in pipeline():
        stage()
    numbered = steps(1)
    numbered.close()
    for handler in [report]:
        handler()


run()
