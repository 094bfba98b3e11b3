class Plugin:
    def setup(self):
        return "ready"


def init(plugin):
    if hasattr(plugin, "setup"):
        return plugin.setup()
    return None


init(Plugin())
