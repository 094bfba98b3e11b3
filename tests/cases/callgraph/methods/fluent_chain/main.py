class Query:
    def __init__(self):
        self.parts = []

    def where(self, cond):
        self.parts.append(cond)
        return self

    def limit(self, n):
        self.parts.append(n)
        return self

    def build(self):
        return " ".join(map(str, self.parts))


Query().where("a").limit(3).build()
