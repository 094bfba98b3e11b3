class Base:
    def save(self):
        return ["base"]


class Child(Base):
    def save(self):
        return super().save() + ["child"]


Child().save()
