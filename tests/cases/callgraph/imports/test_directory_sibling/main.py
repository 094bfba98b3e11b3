import importlib
import sys
from pathlib import Path


def run():
    # what pytest's default import mode does for a test file in a directory without __init__.py
    sys.path.insert(0, str(Path(__file__).parent / "checks"))
    module = importlib.import_module("test_" + "area")
    module.test_square()


run()
