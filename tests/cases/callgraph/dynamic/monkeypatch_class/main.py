class Client:
    def fetch(self):
        return "network"

    def get(self):
        return self.fetch()


def offline_fetch(self):
    return "cached"


Client.fetch = offline_fetch
Client().get()
