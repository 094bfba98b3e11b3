def fallback():
    return "instance attribute"


class Service:
    def act(self):
        return "method"

    def rest(self):
        return "untouched"


def run():
    service = Service()
    service.__dict__["act"] = fallback
    service.rest()
    return service.act()


run()
