from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from models import Record


def persist(record: Record):
    return record.save()


if __name__ == "__main__":
    from models import Record as Rec

    persist(Rec())
