def run_stage(step, rest):
    step()
    hand_over(rest)


def hand_over(job):
    finish(job)


def finish(job):
    job()


def countdown(n, action):
    if n:
        countdown(n - 1, action)
    else:
        action()


def shout(text):
    return relay(text)


def relay(text):
    return text.upper()


def prepare():
    pass


def cleanup():
    pass


def notify():
    pass


run_stage(prepare, cleanup)
countdown(2, notify)
shout("done")
