import bisect
import heapq


class Task:
    def __init__(self, priority):
        self.priority = priority

    def __lt__(self, other):
        return self.priority < other.priority


class Settings:
    def keys(self):
        return ["debug"]

    def __getitem__(self, key):
        return True


class Flag:
    def __bool__(self):
        return False


class Square:
    def __call__(self, number):
        return number * number


class Count:
    def __index__(self):
        return 2


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __iadd__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        self.cents += other.cents
        return self

    def __add__(self, other):
        return Money(self.cents + int(other))


def configure(**options):
    return options


def run():
    queue = []
    heapq.heappush(queue, Task(2))
    heapq.heappush(queue, Task(1))
    bisect.insort(queue, Task(3))
    options = dict(Settings())
    configure(**Settings())
    flags = list(filter(None, [Flag()]))
    square = Square()
    squares = list(map(square, [1, 2]))
    numbers = range(Count())
    money = Money(1)
    money += 5
    return options, flags, squares, numbers, money


run()
