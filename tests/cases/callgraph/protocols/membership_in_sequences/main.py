class Token:
    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return isinstance(other, Token) and other.text == self.text


def find():
    tokens = [Token("a"), Token("b")]
    return Token("b") in tokens


def position():
    tokens = [Token("a"), Token("b")]
    return tokens.index(Token("b"))


find()
position()
