"""The index does not depend on the hash seed: not its edges, nor the order of a site's targets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import TemporaryRepo

#: The items of four containers, each of its own class, shown by one ``%r``: the containers are values
#: whose order among themselves follows the hash seed.
FILES = {
    "shown.py": (
        "class A:\n    def __repr__(self):\n        return 'A'\n\n\n"
        "class B:\n    def __repr__(self):\n        return 'B'\n\n\n"
        "class C:\n    def __repr__(self):\n        return 'C'\n\n\n"
        "class D:\n    def __repr__(self):\n        return 'D'\n\n\n"
        "def show(n):\n"
        "    if n == 1:\n        items = [A()]\n"
        "    elif n == 2:\n        items = (B(),)\n"
        "    elif n == 3:\n        items = {C()}\n"
        "    else:\n        items = [D(), D()]\n"
        "    return '%r' % (items,)\n"
    ),
}

SITES = (
    "import json, sys\n"
    "from dure.analyzers import build_index\n"
    "index = build_index(sys.argv[1], cache=False, workers=1)\n"
    "print(json.dumps([[s.caller, s.line, s.column, s.expression, [[t.callee, t.certainty.value] for t in "
    "s.targets]] for s in index.call_sites]))\n"
)


def _sites_with_seed(root: Path, seed: int) -> list[list[Any]]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run(
        [sys.executable, "-c", SITES, str(root)], env=env, capture_output=True, text=True, check=True
    )
    sites: list[list[Any]] = json.loads(done.stdout)
    return sites


def test_a_site_lists_its_targets_in_the_same_order_whatever_the_hash_seed(
    temporary_repo: TemporaryRepo,
) -> None:
    root = temporary_repo(FILES)
    runs = [_sites_with_seed(root, seed) for seed in (1, 2, 3, 4, 5)]
    shown = [site for site in runs[0] if site[3] == "__mod__"]
    assert [callee for callee, _ in shown[0][4]] == [f"shown.{c}.__repr__" for c in "ABCD"]
    for run in runs[1:]:
        assert run == runs[0]
