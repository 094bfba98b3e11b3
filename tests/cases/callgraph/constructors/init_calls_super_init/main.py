class Model:
    def __init__(self, table):
        self.table = table


class User(Model):
    def __init__(self):
        super().__init__("users")


User()
