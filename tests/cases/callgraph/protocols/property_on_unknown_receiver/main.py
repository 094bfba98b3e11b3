class Node:
    def __init__(self, text):
        self._text = text

    @property
    def text(self):
        return self._text


def shout(node):
    return node.text


def run(items):
    return [shout(item) for item in items]


run([Node("a")])
