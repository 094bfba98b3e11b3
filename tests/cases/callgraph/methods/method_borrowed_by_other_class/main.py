class Base:
    def describe(self):
        return "base"


class Owner(Base):
    def describe(self):
        return "owner"

    def show(self):
        return self.describe()

    def show_parent(self):
        return super().describe()


class Borrower:
    show = Owner.show
    show_directly = Owner.__dict__["show"]

    def describe(self):
        return "borrower"


class Stranger:
    pass


Stranger.show_parent = Owner.show_parent


def run():
    Owner().show()
    Borrower().show()
    Borrower().show_directly()
    try:
        Stranger().show_parent()
    except TypeError:
        pass


run()
