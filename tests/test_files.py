"""Atomic writes keep the permissions a plain open() gives, so other users can read dure's outputs."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dure.files import write_atomic


def test_text_and_bytes_are_written_whole_with_the_umask_permissions(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    write_atomic(tmp_path / "deep" / "a.jsonl", "one\ntwo\n")
    write_atomic(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "deep" / "a.jsonl").read_bytes() == b"one\ntwo\n"
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    for written in (tmp_path / "deep" / "a.jsonl", tmp_path / "b.bin"):
        assert stat.S_IMODE(written.stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.bin", "deep", "plain.txt"]  # no leftovers


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "tasks.jsonl"
    write_atomic(target, "old\n")
    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert target.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["tasks.jsonl"]
