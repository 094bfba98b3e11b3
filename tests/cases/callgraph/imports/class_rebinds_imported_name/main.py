from base import Handler


class Handler(Handler):
    def handle(self):
        return "wrapped " + super().handle()


Handler().handle()
