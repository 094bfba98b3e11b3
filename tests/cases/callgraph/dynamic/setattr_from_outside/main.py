class Plain:
    def act(self):
        return "plain"


class Special:
    def act(self):
        return "special"


class Holder:
    def __init__(self):
        self.item = Plain()

    def use(self):
        return self.item.act()


class Frozen:
    def __init__(self):
        object.__setattr__(self, "item", Special())

    def use(self):
        return self.item.act()


class Bound:
    def __init__(self):
        self.item = Plain()

    def use(self):
        return self.item.act()


class Swapped:
    def __init__(self):
        self.item = Plain()

    def swap(self):
        super().__setattr__("item", Special())

    def use(self):
        return self.item.act()


class Untouched:
    def __init__(self):
        self.item = Plain()

    def use(self):
        return self.item.act()


holder = Holder()
for name in ["item"]:
    setattr(holder, name, Special())
holder.use()
Frozen().use()
bound = Bound()
bound.__setattr__("item", Special())
bound.use()
swapped = Swapped()
swapped.swap()
swapped.use()
Untouched().use()
