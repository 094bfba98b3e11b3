class Units:
    @staticmethod
    def to_cm(inches):
        return inches * 2.54

    @classmethod
    def unit(cls):
        return "cm"


u = Units()
a = u.to_cm(1)
b = Units.to_cm(2)
c = u.unit()
d = Units.unit()
