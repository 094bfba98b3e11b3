class Parser:
    @classmethod
    def parse(cls, text):
        return cls.tokens(text)

    @classmethod
    def tokens(cls, text):
        return text.split()


Parser.parse("a b")
