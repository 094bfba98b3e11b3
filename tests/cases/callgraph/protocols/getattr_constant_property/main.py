class Config:
    @property
    def debug(self):
        return False

    def reload(self):
        return True


cfg = Config()
flag = getattr(cfg, "debug")
getattr(cfg, "reload")()
