def validate(x):
    return x > 0


class Form:
    def validate(self, x):
        return validate(x)


Form().validate(1)
