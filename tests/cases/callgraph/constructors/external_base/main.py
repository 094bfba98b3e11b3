class Registry(dict):
    def register(self, key, value):
        self[key] = value
        return value


r = Registry()
r.register("a", 1)
