from dataclasses import dataclass
from typing import ClassVar


def identity(text):
    return text


def shout(text):
    return text.upper()


class Retry:
    def delay(self):
        return 1


class Backoff(Retry):
    def delay(self):
        return 2


@dataclass
class Pipeline:
    transform: object = identity
    policy: Retry = Retry()
    fallback: ClassVar[object] = staticmethod(identity)

    def run(self, text):
        self.policy.delay()
        self.fallback(text)
        return self.transform(text)


class Plain:
    transform = staticmethod(identity)

    def run(self, text):
        return self.transform(text)


def main():
    Pipeline(shout, Backoff()).run("x")
    Plain().run("y")


main()
