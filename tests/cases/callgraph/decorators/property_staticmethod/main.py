class Temperature:
    def __init__(self, celsius):
        self.celsius = celsius

    @property
    def fahrenheit(self):
        return self.convert(self.celsius)

    @staticmethod
    def convert(c):
        return c * 9 / 5 + 32


Temperature(20).fahrenheit
