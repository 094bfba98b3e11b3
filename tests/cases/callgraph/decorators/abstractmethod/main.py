from abc import ABC, abstractmethod


class Task(ABC):
    def run(self):
        return self.step()

    @abstractmethod
    def step(self):
        raise NotImplementedError


class Build(Task):
    def step(self):
        return "built"


Build().run()
