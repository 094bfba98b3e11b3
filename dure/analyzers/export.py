"""The index as documented JSON (``dure index --json``).

Format, version 1::

    {
      "format": "dure-index", "version": 1,
      "root": "/abs/path", "files": 12, "lines": 3456,
      "nodes": [{"name": "pkg.mod.Class.method", "kind": "method", "file": "pkg/mod.py",
                 "line": 10, "end_line": 20}, ...],
      "edges": [{"caller": "pkg.mod.f", "callee": "pkg.mod.g", "certainty": "certain",
                 "file": "pkg/mod.py", "line": 12}, ...],
      "diagnostics": ["pkg/bad.py:3: syntax error: ..."]
    }

Nodes are the repository's definitions (kinds ``module``, ``class``, ``function``, ``method``, ``lambda``).
An edge's callee is a node name, ``builtins.NAME``, an external import path, or, when ``certainty`` is
``unresolved``, the called expression as written. Module-level code calls from the module's own name.
Nodes and edges are sorted, so the same repository gives the same bytes.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from dure.analyzers.index import RepoIndex

FORMAT_VERSION = 1


def graph_document(index: RepoIndex) -> dict[str, Any]:
    nodes = [
        {"name": d.qualname, "kind": d.kind.value, "file": d.file, "line": d.line, "end_line": d.end_line}
        for d in sorted(index.definitions.values(), key=lambda d: (d.file, d.line, d.qualname))
    ]
    edges = [
        {"caller": caller, "callee": callee, "certainty": certainty, "file": file, "line": line}
        for file, line, caller, callee, certainty in sorted(index.edge_rows())
    ]
    return {
        "format": "dure-index",
        "version": FORMAT_VERSION,
        "root": str(index.root.resolve()),
        "files": index.statistics.files,
        "lines": index.statistics.lines,
        "nodes": nodes,
        "edges": edges,
        "diagnostics": [str(d) for d in index.diagnostics],
    }


def write_graph(index: RepoIndex, path: Path) -> None:
    """Write :func:`graph_document` atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            # dumps (the C encoder) then one write: json.dump to a stream encodes in pure Python, 5x slower
            stream.write(json.dumps(graph_document(index), separators=(",", ":")) + "\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
