"""jedi as a fallback for call sites our own resolution leaves unresolved.

jedi infers types where dure's flow-insensitive evaluation gives up (values from subscripts, from
untyped returns of external calls, from comprehensions...). Its inference is heuristic, so what it finds is
added as *possible* targets only, never certain. It is opt-in (``build_index(..., jedi=True)``,
``dure index --jedi``) because it costs far more than the rest of the index: ``benchmarks/index.py``
measures it.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dure.analyzers.callgraph import ResolvedSite, ResolvedTarget
from dure.analyzers.model import Certainty, Definition, DefinitionKind
from dure.analyzers.summary import ModuleSummary


@dataclass(frozen=True, slots=True)
class JediReport:
    """What the fallback tried and what it cost."""

    sites: int  # unresolved call sites handed to jedi
    resolved: int  # sites that gained at least one target
    failures: int  # sites where jedi raised
    seconds: float


def _source_lines(path: Path) -> list[str] | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return None


def _character_column(line: str, byte_column: int) -> int:
    return len(line.encode()[:byte_column].decode(errors="ignore"))


def _targets(names: Iterable[Any], definitions: Mapping[str, Definition]) -> list[str]:
    found = []
    for name in names:
        full = name.full_name
        while full and full not in definitions and "." in full:
            full = full.partition(".")[2]  # jedi may prefix a source directory (src.pkg.mod)
        definition = definitions.get(full or "")
        if definition is None:
            continue
        if definition.kind is DefinitionKind.CLASS:
            init = f"{full}.__init__"
            found.append(init if init in definitions else definition.qualname)
        elif definition.kind in (DefinitionKind.FUNCTION, DefinitionKind.METHOD):
            found.append(definition.qualname)
    return found


def add_jedi_targets(
    root: Path,
    sites: list[ResolvedSite],
    summaries: Mapping[str, ModuleSummary],
    definitions: Mapping[str, Definition],
) -> JediReport:
    """Give unresolved explicit calls the targets jedi infers for the called name, as possible targets."""
    import jedi  # noqa: PLC0415 - costly to import, and needed only when asked for

    started = time.perf_counter()
    pending: dict[str, list[ResolvedSite]] = defaultdict(list)
    for site in sites:
        explicit = site.record.kind == "call"
        if explicit and any(t.certainty is Certainty.UNRESOLVED for t in site.targets):
            pending[site.module].append(site)
    project = jedi.Project(root, added_sys_path=[str(root / "src")] if (root / "src").is_dir() else [])
    resolved = failures = 0
    for module, group in sorted(pending.items()):
        path = root / summaries[module].relpath
        lines = _source_lines(path)
        if lines is None:
            continue
        script = jedi.Script("\n".join(lines), path=path, project=project)
        for site in group:
            line, byte_column = site.record.end
            if not 0 < line <= len(lines):
                continue
            column = max(_character_column(lines[line - 1], byte_column) - 1, 0)
            try:
                names = script.infer(line, column)
            except Exception:  # jedi fails on some code; the site stays unresolved
                failures += 1
                continue
            known = {t.callee for t in site.targets}
            added = [
                ResolvedTarget(q, Certainty.POSSIBLE) for q in _targets(names, definitions) if q not in known
            ]
            if added:
                resolved += 1
                site.targets.extend(added)
    total = sum(len(group) for group in pending.values())
    return JediReport(total, resolved, failures, time.perf_counter() - started)
