from pkg import mod


def run(target):
    target.start()


mod.start()
list(map(run, [mod]))
