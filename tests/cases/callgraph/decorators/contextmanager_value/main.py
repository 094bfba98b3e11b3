import contextlib


class Connection:
    def query(self):
        return "rows"

    def close(self):
        return None


@contextlib.contextmanager
def connect():
    connection = Connection()
    try:
        yield connection
    finally:
        connection.close()


def run():
    with connect() as connection:
        return connection.query()


run()
