DEFAULTS = {"debug": False}
