import sys

from . import _modern as compat


class Tool:
    def run(self):
        return "instance"


tool = Tool()
sys.modules[__name__ + ".compat"] = compat
