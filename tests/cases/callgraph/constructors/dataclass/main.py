from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    tags: list = field(default_factory=list)

    def label(self):
        return self.name.title()


Item("x").label()
