"""A small repository written for the generator tests, and a :class:`Source` over any directory."""

from __future__ import annotations

from pathlib import Path

from dure.analyzers import build_index
from dure.analyzers.runtime import TestEvidence
from dure.corpus import Repository
from dure.generators.base import Source
from dure.generators.pipeline import repo_ref

SHOP = {
    "shop/__init__.py": '"""A tiny shop."""\n',
    "shop/prices.py": (
        "import fractions\n"
        "import math\n\n\n"
        "def round_price(value):\n"
        '    """Round a price to whole cents."""\n'
        "    return float(round(fractions.Fraction(value), 2))\n\n\n"
        "def discount(value, percent):\n"
        '    """Take a percentage off a price."""\n'
        "    return round_price(value * (100 - percent) / 100)\n\n\n"
        "def total(values):\n"
        '    """Sum prices, rounding each."""\n'
        "    return math.fsum(round_price(v) for v in values)\n"
    ),
    "shop/items.py": (
        "from shop.prices import discount, round_price\n\n\n"
        "class Item:\n"
        '    """Something to sell."""\n\n'
        "    def price(self):\n"
        "        return round_price(1)\n\n\n"
        "class Book(Item):\n"
        "    def price(self):\n"
        "        return discount(10, 5)\n\n\n"
        "class Ebook(Book):\n"
        "    pass\n\n\n"
        "class Food(Item):\n"
        "    pass\n\n\n"
        "def checkout(count):\n"
        '    """Price a basket of books after the discount."""\n'
        "    return discount(count * 10, 5)\n"
    ),
    "tests/test_shop.py": (
        "from shop.items import checkout\n"
        "from shop.prices import total\n\n\n"
        "def test_checkout():\n"
        "    assert checkout(1) > 0\n\n\n"
        "def test_total():\n"
        "    assert total([1, 2]) == 3\n"
    ),
}


def source_of(root: Path, *, seed: int = 0, evidence: TestEvidence | None = None) -> Source:
    """A :class:`Source` over a local directory; its tests never run unless ``evidence`` is given."""
    repository = Repository(root.name, None, root)
    outcome = evidence if evidence is not None else TestEvidence(error="tests not run in this test")
    return Source(repo_ref(repository), root, build_index(root, cache=False), None, seed, lambda: outcome)
