def square(x):
    return x * x


area = lambda side: square(side)

area(3)
