class Shell:
    def run(self, name):
        handler = getattr(self, "cmd_" + name)
        return handler()

    def cmd_list(self):
        return []

    def cmd_quit(self):
        return None

    def help(self):
        return "help"


Shell().run("list")
