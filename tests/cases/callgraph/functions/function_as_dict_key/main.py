def as_int(text):
    return int(text)


def as_name(text):
    return text.strip()


def validate(schema, data):
    checked = {}
    for key, value in data.items():
        for check, kind in schema.items():
            try:
                checked[check(key)] = kind(value)
            except ValueError:
                continue
    return checked


def run():
    validate({as_int: str}, {"1": "one", "two": "2"})
    return as_name(" padded ")


run()
