import os.path
import json


def config_path(base):
    return os.path.join(base, "config.json")


def dump(data):
    return json.dumps(data, sort_keys=True)


dump({"path": config_path("/etc")})
