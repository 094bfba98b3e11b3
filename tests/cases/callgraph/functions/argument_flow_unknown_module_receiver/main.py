from pkg import mod


def run(target):
    target.shout(b"quiet")


mod.shout("quiet")
list(map(run, [mod]))
