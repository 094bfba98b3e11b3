"""The index over the whole standard library of the running Python: no exception, only real diagnostics."""

from __future__ import annotations

import sysconfig
import warnings
from pathlib import Path

from dure.analyzers import build_index
from dure.analyzers.model import DefinitionKind
from dure.analyzers.source import MAX_SOURCE_BYTES


def compiles(path: Path) -> bool:
    """Whether CPython itself accepts the file (the check the index's diagnostics are held to)."""
    data = path.read_bytes()
    if len(data) > MAX_SOURCE_BYTES:
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(data, str(path), "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def test_whole_stdlib() -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    with warnings.catch_warnings():
        # As in production: pytest's filterwarnings=error would make the parser raise on an invalid escape.
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        index = build_index(root, cache=False)
    stats = index.statistics
    assert stats.modules > 1000, stats
    assert stats.modules + len({d.path for d in index.diagnostics if d.path.endswith(".py")}) >= stats.files
    assert stats.lines > 500_000
    assert index.definitions["json.dumps"].kind is DefinitionKind.FUNCTION
    assert "collections.OrderedDict" in index.classes
    assert index.callers("json.dumps").value  # some stdlib code calls json.dumps
    wrong = [str(d) for d in index.diagnostics if (root / d.path).is_file() and compiles(root / d.path)]
    assert wrong == [], "diagnostics for files CPython compiles"
    not_files = [str(d) for d in index.diagnostics if not (root / d.path).is_file()]
    assert all("symlink" in text or "twice" in text for text in not_files), not_files
