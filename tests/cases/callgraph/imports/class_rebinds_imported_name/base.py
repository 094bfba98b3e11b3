class Handler:
    def handle(self):
        return "base"
