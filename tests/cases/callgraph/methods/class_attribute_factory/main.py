class Conn:
    pass


class SecureConn(Conn):
    pass


class Client:
    factory = Conn

    def connect(self):
        return self.factory()


class SecureClient(Client):
    factory = SecureConn


Client().connect()
SecureClient().connect()
