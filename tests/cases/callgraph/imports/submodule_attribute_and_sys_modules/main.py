import pkg
import pkg.tool as tool_module
from pkg.compat import run as compat_run


def main():
    pkg.tool.run()
    tool_module.run()
    compat_run()


main()
