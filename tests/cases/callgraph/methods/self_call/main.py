class Report:
    def render(self):
        return self.header() + "body"

    def header(self):
        return "title:"


Report().render()
