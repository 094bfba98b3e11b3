"""Annotations here are never evaluated."""

from __future__ import annotations


def tag(value):
    return value


class Later:
    value: tag(1) = 0

    def method(self, other: tag(2)) -> tag(3):
        return other
