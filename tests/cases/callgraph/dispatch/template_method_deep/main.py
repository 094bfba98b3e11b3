class Job:
    def run(self):
        return self.step()

    def step(self):
        return 0


class Nightly(Job):
    def step(self):
        return 1


class Weekly(Nightly):
    def step(self):
        return super().step() + 1


Weekly().run()
