import config

settings = config.load()
