def memoize_property(method):
    name = "_" + method.__name__

    def accessor(self):
        if name not in self.__dict__:
            self.__dict__[name] = method(self)
        return self.__dict__[name]

    return property(accessor)


class Keys:
    @memoize_property
    def real(self):
        return "real"

    def plain(self):
        return "plain"


KEYS = Keys()


def facts():
    return (KEYS.real, KEYS.plain())


facts()
