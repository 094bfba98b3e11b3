class Exporter:
    def run(self):
        return self.format("data")

    def format(self, data):
        return data


class JsonExporter(Exporter):
    def format(self, data):
        return '"' + data + '"'


JsonExporter().run()
Exporter().run()
