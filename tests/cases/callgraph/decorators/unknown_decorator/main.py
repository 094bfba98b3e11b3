from plugin_api import hook


@hook
def handler():
    return 1


handler()
