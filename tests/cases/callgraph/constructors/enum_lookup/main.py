import enum


class Planet(enum.Enum):
    EARTH = (5.97, 6.37)
    MARS = (0.642, 3.39)

    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius

    def density(self):
        return self.mass / self.radius**3


Planet((5.97, 6.37)).density()
Planet.MARS.density()
