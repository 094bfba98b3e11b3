class Widget:
    @property
    def media(self):
        return ["widget.js"]


class Select(Widget):
    @property
    def media(self):
        return super().media + ["select.js"]


class Multiple(Select):
    def render(self):
        return self.media


Multiple().render()
