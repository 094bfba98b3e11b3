def save(item):
    return "module"


class Repo:
    def save(self, item):
        return "method"

    def add(self, item):
        return self.save(item)


Repo().add(1)
