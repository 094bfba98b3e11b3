def render():
    return "local"


from views import *  # noqa: E402,F403


render()
