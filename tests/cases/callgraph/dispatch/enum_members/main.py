import enum


def shout(member):
    return member.name.upper()


class Color(enum.Enum):
    RED = 1
    GREEN = "green"
    loud = shout

    def describe(self):
        return self.name.lower()


class Level(enum.IntEnum):
    LOW = 1

    def bump(self):
        return self.value + 1


def by_attribute():
    return Color.RED.describe(), Color.GREEN.describe()


def aliased():
    return Color.RED.loud()


def numeric():
    return Level.LOW.bump()


def main():
    by_attribute()
    aliased()
    numeric()


main()
