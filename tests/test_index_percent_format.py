"""The conversions of a ``%``-format, paired with the arguments they show."""

from __future__ import annotations

from dure.analyzers.callgraph import percent_conversions


def test_conversions_in_order() -> None:
    assert percent_conversions("%s and %r") == ["s", "r"]
    assert percent_conversions("%-10s|%05.2f|%a") == ["s", "f", "a"]


def test_a_literal_percent_takes_no_argument() -> None:
    assert percent_conversions("100%% of %s") == ["s"]
    assert percent_conversions("no conversions") == []


def test_mapping_keys_and_star_widths_do_not_pair_off() -> None:
    assert percent_conversions("%(name)s") is None
    assert percent_conversions("%*d items") is None
    assert percent_conversions("%.*f") is None
