class ConfigError(Exception):
    pass


class ParseError(ValueError):
    def __init__(self, line):
        super().__init__(f"line {line}")
        self.line = line


def check(value, line):
    if value is None:
        raise ConfigError("missing")
    if value == "":
        raise ParseError(line)
    if value == "?":
        raise ValueError(value)
    return value


for v in (None, "", "?", "ok"):
    try:
        check(v, 3)
    except (ConfigError, ValueError):
        pass
