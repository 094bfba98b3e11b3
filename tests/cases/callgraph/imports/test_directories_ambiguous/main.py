import importlib
import sys
from pathlib import Path


def run():
    # pytest puts each test directory without __init__.py first on sys.path in the order it collects them;
    # the first "helpers" imported is the one every later test gets
    for directory in ("unit", "functional"):
        sys.path.insert(0, str(Path(__file__).parent / directory))
        module = importlib.import_module("test_" + directory)
        module.test_square()


run()
