class Scheduler:
    def tick(self):
        return "tick"

    def invoke(self, job):
        return job()

    def dispatch(self, runner, job):
        return runner(job)


def start():
    scheduler = Scheduler()
    return scheduler.dispatch(scheduler.invoke, scheduler.tick)


start()
