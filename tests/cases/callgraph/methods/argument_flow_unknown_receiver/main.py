class Codec:
    def encode(self, text):
        return text.upper()


def typed(codec: Codec):
    return codec.encode("text")


def untyped(codec):
    return codec.encode(b"bytes")


typed(Codec())
untyped(Codec())
