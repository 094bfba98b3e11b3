class Address:
    @property
    def city(self):
        return "Oslo"


class Person:
    @property
    def address(self):
        return Address()


name = Person().address.city
