def base_for(kind):
    return Report if kind == "report" else object


class Report:
    def render(self):
        return self.title()

    def title(self):
        return "report"


class Loud(base_for("report")):
    def title(self):
        return "REPORT"


Loud().render()
