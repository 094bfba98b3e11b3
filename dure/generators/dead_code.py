"""``dead-code``: all dead code of one module, after dead code was planted in it.

Existing tools find little of what matters here: half of vulture's "unused function" findings are executed
by the tests, and it finds about a tenth of the functions that never run. So each task plants, with LibCST
and in the module's own naming and style, dead code of the kinds no tool finds, next to live look-alikes:

- a *chain*: renamed copies of two or three live functions (or methods) that call each other, the copy of
  the caller now calling the copy of the callee, so the tail is called, but only by dead code;
- a *twin*: a copy of a live private function of another module, under the same name, so every reference
  to that name in the repository is live, but none reaches this one;
- a *flag branch*: a new private module flag bound to ``False`` and never rebound, tested at the start of
  a live function, so the test runs and the branch body never does;
- sometimes a statement after a function's final ``return`` and an import of a name the module never uses.

Besides those, the answer holds what the index proves dead in the code as released: private, undecorated
functions, methods and classes that nothing calls or references (no call site of any certainty, not used as
a value, not imported, no dynamic access that could reach them, their name written nowhere else in the
repository, not even in a string) and that the tests never execute, plus statements after a ``return``,
``raise``, ``continue`` or ``break``. The tests' coverage is required: without it nothing is claimed dead.

Items executed by the tests (live look-alikes, the functions hosting the planted branch) are forbidden;
what cannot be decided (public API never executed, special methods, hooks, ``TYPE_CHECKING`` imports,
platform branches, anything inside a dead definition) is ignored. The planted code is checked on an index of
the patched tree before a task is written, and vulture's score on every task is kept in its ``audit`` record
as a baseline.

Item names (the scheme the prompt explains): ``pkg.mod.func``, ``pkg.mod.Class``, ``pkg.mod.Class.method``
and ``pkg.mod.outer.inner`` for definitions; ``pkg.mod:import:name`` for a module-level import (the name it
binds); ``pkg.mod:branch:N`` for an ``if``/``elif``/``else`` block that never runs, ``N`` the line of its
keyword; ``pkg.mod:unreachable:N`` for statements after a ``return``/``raise``/``continue``/``break``, ``N``
the line of the first. Lines are those of the workspace (the patched file).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import hashlib
import io
import pkgutil
import random
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import vulture  # type: ignore[import-untyped]

from dure.analyzers import cyclic_gc
from dure.analyzers.affected import REBINDING_KINDS, affecting
from dure.analyzers.builder import ANALYZER_VERSION, LoadedSummaries, build_index
from dure.analyzers.cache import IndexCache, summary_key
from dure.analyzers.index import RepoIndex
from dure.analyzers.model import Certainty, DefinitionKind, ImportCondition, UncertaintyKind
from dure.analyzers.queries import caller_doubts
from dure.analyzers.runtime import TestEvidence
from dure.analyzers.source import discover
from dure.generators._inject import (
    FUNCTION,
    DefInfo,
    InjectionError,
    ModuleView,
    Plan,
    Planted,
    Twin,
    blocks_of,
    free_names,
    plant,
    split_lines,
    walk_definitions,
)
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, provenance
from dure.generators.difficulty import features, phase_of
from dure.scoring import score_answer
from dure.tasks.frozen import freeze_object
from dure.tasks.model import Task, TaskKind, VerifierSpec, make_task
from dure.verifiers.audit import audit_task
from dure.workspace import make_patch

VARIANTS = 5  # tasks per module at most, each with other planted code
ATTEMPTS = 4  # plans tried per task when the patched index doubts what was planted
CHECKED_TOGETHER = 8  # modules whose first plans are checked on one index of the tree with all planted
MIN_ANSWER = 2  # items: "all the dead code" of a module is no question when it is one item
TWO_TWINS = 0.5  # how often a plan tries for a second twin
TWO_BRANCHES = 0.3  # how often the flag guards two branches when other hard kinds fit
OPTIONAL_KINDS = 0.5  # how often a plan tries for a stale statement after a return, and for an unused import
#: Of chain, twin and flag branch, how many a module's first task needs, and how many its later ones need
#: (a repository whose dynamic features leave only the flag branch certain still gets one task per module).
MIN_HARD_KINDS = (1, 2)
SUFFIXES = (
    "impl", "inner", "fast", "simple", "strict", "checked", "raw", "safe", "direct", "compat", "legacy",
    "old", "slow", "unchecked", "cached", "eager", "lazy", "basic",
)  # fmt: skip
FLAG_WORDS = ("DEBUG", "TRACE", "VERBOSE", "STRICT", "PARANOID", "CHECKS", "VALIDATE")
#: Private names that frameworks and the interpreter call by name (sunder names are excluded wholesale).
HOOKS = frozenset({"_asdict", "_make", "_replace", "_fields", "_field_defaults", "_get_child_mock"})
#: Class decorators that read annotations, not methods: a class they decorate takes a new method unnoticed.
PLAIN_CLASS_DECORATORS = (
    "dataclass", "dataclasses.dataclass", "total_ordering", "functools.total_ordering", "attr.s",
    "attrs.define", "attr.define", "final", "typing.final",
)  # fmt: skip
TEXT_LIMIT = 2_000_000  # bytes: larger files are data, not code that could name a definition
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BUILTINS = frozenset(dir(builtins))

ANSWER_SCHEMA: dict[str, object] = {"type": "array", "items": {"type": "string", "minLength": 1}}

PROMPT = """\
The workspace is {repo} {version} with a small patch applied. List all dead code in the module `{module}` \
(file `{file}`), as the code is in the workspace.

Dead code is code of this module that can never run or be used, whatever a program does with the package:
- a function, method or class that nothing uses: no call, reference or import reaches it, except from \
other dead code;
- a module-level import whose bound name is never used;
- an `if`, `elif` or `else` block whose body can never run;
- statements that can never run because the statement before them in the same block never completes \
(a `return`, `raise`, `continue` or `break`, say).

Code that the repository's tests use is live. Names without a leading underscore are public API that code \
outside the repository may use, and special methods (`__x__`) and hooks that the interpreter or a \
framework calls by name are live as well: do not list them.

Give each item as a string:
- `{module}.name` for a function or class defined in the module, `{module}.Class.method` for a method, \
`{module}.outer.inner` for a function nested in another;
- `{module}:import:name` for an import, `name` being the name it binds in the module (the `as` name when \
there is one; `a` for `import a.b`);
- `{module}:branch:N` for a block that never runs, N being the line of its `if`, `elif` or `else` keyword \
in the workspace file;
- `{module}:unreachable:N` for such statements, N being the line of the first of them.
List an item at its outermost level only: when a whole function or class is dead, do not list anything \
inside it.

Answer with a JSON array of these strings, in any order, inside <answer></answer> tags or a ```json fenced \
block."""


def import_item(module: str, name: str) -> str:
    return f"{module}:import:{name}"


def branch_item(module: str, line: int) -> str:
    return f"{module}:branch:{line}"


def unreachable_item(module: str, line: int) -> str:
    return f"{module}:unreachable:{line}"


def _special(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def is_private(name: str) -> bool:
    """A single-underscore name: not special (``__x__``), mangled (``__x``) or sunder (``_x_``)."""
    return name.startswith("_") and not name.startswith("__") and not name.endswith("_") and name not in HOOKS


# -- the repository ----------------------------------------------------------------------------------------


class _Repository:
    """What every module's task needs from the repository: its views, word counts and the index."""

    def __init__(self, source: Source, evidence: TestEvidence) -> None:
        self.source = source
        self.index = source.index
        self.evidence = evidence
        self.words = word_counts(source.root)
        self._views: dict[str, ModuleView | None] = {}
        self._live: dict[str, list[DefInfo]] = {}
        self._facts: dict[str, _ModuleFacts] = {}
        self._free: dict[str, frozenset[str]] = {}
        self._owners: dict[str, frozenset[str]] | None = None
        modules = [d for d in self.index.definitions.values() if d.kind is DefinitionKind.MODULE]
        self.files = {d.qualname: d.file for d in modules}
        self.testable = sorted(d.qualname for d in modules if not d.is_test and evidence.executed.get(d.file))
        self.imported = frozenset(i.resolved for i in self.index.imports if i.resolved)
        self.starred = frozenset(i.resolved for i in self.index.imports if i.is_star and i.resolved)

    def view(self, module: str) -> ModuleView | None:
        if module not in self._views:
            self._views[module] = self._read(module)
        return self._views[module]

    def _read(self, module: str) -> ModuleView | None:
        file = self.files.get(module)
        if file is None:
            return None
        executed = frozenset(self.evidence.executed.get(file, frozenset()))
        try:
            text = (self.source.root / file).read_bytes().decode("utf-8")
            return ModuleView.read(module, file, text, executed)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            return None

    def facts(self, view: ModuleView) -> _ModuleFacts:
        """What the plans of ``view`` ask of its text and tree, worked out once for all its tasks."""
        if view.name not in self._facts:
            self._facts[view.name] = _ModuleFacts.of(view)
        return self._facts[view.name]

    def free_names(self, info: DefInfo) -> frozenset[str]:
        """The free names of the function ``info``, worked out once (every twin of every module asks)."""
        if info.qualname not in self._free:
            assert isinstance(info.node, FUNCTION)
            self._free[info.qualname] = frozenset(free_names(info.node))
        return self._free[info.qualname]

    def method_owners(self) -> dict[str, frozenset[str]]:
        """Method name -> the classes of the repository defining a method of that name (worked out once:
        every twin of a method asks)."""
        if self._owners is None:
            owners: dict[str, set[str]] = {}
            for d in self.index.definitions.values():
                if d.kind is DefinitionKind.METHOD and d.parent:
                    owners.setdefault(d.name, set()).add(d.parent)
            self._owners = {name: frozenset(classes) for name, classes in owners.items()}
        return self._owners

    def live_functions(self, view: ModuleView) -> list[DefInfo]:
        """Functions and methods of ``view`` the tests run, written plainly enough to copy or edit (special
        methods included)."""
        if view.name not in self._live:
            self._live[view.name] = self._find_live(view)
        return self._live[view.name]

    def _find_live(self, view: ModuleView) -> list[DefInfo]:
        found = []
        for info in view.definitions:
            node = info.node
            if not (info.is_function and info.direct) or node.decorator_list:
                continue
            assert isinstance(node, FUNCTION)
            if info.qualname in self.index.rebound or info.qualname not in self.index.definitions:
                continue
            one_line = node.body[0].lineno == node.lineno
            if info.executed(view.executed) and _plain_defaults(node) and not one_line:
                found.append(info)
        return found

    def original_dead(self, view: ModuleView) -> set[str]:
        """Definitions of the released module that the index proves dead and the tests never run."""
        dead = set()
        by_callee = self.index.sites_by_callee()
        for info in view.definitions:
            definition = self.index.definitions.get(info.qualname)
            if definition is None or not info.direct or not is_private(info.name) or info.node.decorator_list:
                continue
            node = info.node
            if isinstance(node, ast.ClassDef) and (
                node.keywords or any(not (isinstance(b, ast.Name) and b.id == "object") for b in node.bases)
            ):
                continue
            if info.executed(view.executed) or by_callee.get(info.qualname):
                continue
            if info.container is not None and not open_class(self.index, view, info.container):
                continue
            if info.qualname in self.index.escaped or info.qualname in self.imported:
                continue
            if self.words[info.name] != 1 or caller_doubts(self.index, info.qualname):
                continue
            dead.add(info.qualname)
        return dead


@dataclass(frozen=True, slots=True)
class _ModuleFacts:
    """Facts of one released module that its every plan reads."""

    words: frozenset[str]  # identifier-like words of its text
    own: frozenset[str]  # names it binds, and the builtins
    star_import: bool

    @classmethod
    def of(cls, view: ModuleView) -> _ModuleFacts:
        words = frozenset(_WORD.findall(view.text))
        return cls(words, frozenset(view.bound_names() | _BUILTINS), view.star_import)


_PLAIN = (ast.Constant, ast.Name, ast.Attribute, ast.Tuple, ast.UnaryOp, ast.unaryop, ast.expr_context)


def _plain_defaults(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Default values that evaluate without calling anything (a copy must not run code when defined)."""
    defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
    return all(isinstance(part, _PLAIN) for default in defaults for part in ast.walk(default))


def word_counts(root: Path) -> Counter[str]:
    """How often each identifier-like word is written in the repository's text files (code, docs, config)."""
    counts: Counter[str] = Counter()
    for path in sorted(root.rglob("*")):
        if ".git" in path.parts or not path.is_file() or path.suffix in (".pyc", ".so", ".gz", ".zip"):
            continue
        try:
            if path.stat().st_size > TEXT_LIMIT:
                continue
            text = path.read_bytes().decode("utf-8", errors="ignore")
        except OSError:
            continue
        counts.update(_WORD.findall(text))
    return counts


# -- planning what to plant ---------------------------------------------------------------------------------


@dataclass
class _Used:
    """What earlier variants of a module planted, so later ones plant something else."""

    chains: set[str] = field(default_factory=set)
    twins: set[str] = field(default_factory=set)
    hosts: set[str] = field(default_factory=set)


def _copy_name(name: str, suffix: str) -> str:
    core = name.lstrip("_")
    if "_" not in core and re.search(r"[a-z][A-Z]", core):
        return f"_{core}{suffix.capitalize()}"
    return f"_{core}_{suffix}"


class _Planner:
    def __init__(self, repo: _Repository, view: ModuleView, rng: random.Random, used: _Used) -> None:
        self.repo, self.view, self.rng, self.used = repo, view, rng, used
        self.hosts = repo.live_functions(view)  # where a branch or a stale statement may go
        self.live = [i for i in self.hosts if not _special(i.name)]  # what may be copied
        self.taken: set[str] = set()  # new names of this plan

    def fresh(self, name: str) -> bool:
        return self.repo.words[name] == 0 and name not in self.taken and name not in _BUILTINS

    def plan(self) -> Plan:
        """Chain, twins and flag branch where they fit; a stale statement and an unused import sometimes,
        always when fewer than two of the others fit (so an answer has at least two items if it can)."""
        plan = Plan()
        chain = self.chain()
        if chain is not None:
            plan = replace(plan, chain=chain[0], renames=chain[1])
        twins = [self.twin() for _ in range(1 + (self.rng.random() < TWO_TWINS))]
        plan = replace(plan, twins=tuple(t for t in twins if t is not None))
        flag = self.flag_branches(alone=plan.hard_kinds == 0)
        if flag is not None:
            plan = replace(plan, flag=flag[0], branch_hosts=flag[1])
        eager = plan.hard_kinds < 2
        if self.rng.random() < OPTIONAL_KINDS or eager:
            plan = replace(plan, tail_host=self.tail_host())
        if self.rng.random() < OPTIONAL_KINDS or eager:
            plan = replace(plan, imported=self.import_line())
        return plan

    def replan(self, plan: Plan, planted: Planted, problems: Mapping[str, str], *, flag_failed: bool) -> Plan:
        """The plan with something else planted where the patched index found a doubt (the flag kind is
        dropped: what threatens one flag of the module threatens any)."""
        if set(problems) & set(planted.chain):
            chain = self.chain()
            plan = replace(plan, chain=chain[0] if chain else (), renames=chain[1] if chain else {})
        failed = [q for q in planted.twins if q in problems]
        if failed:
            kept = [t for t, q in zip(plan.twins, planted.twins, strict=True) if q not in problems]
            fresh = [self.twin() for _ in failed]
            plan = replace(plan, twins=tuple(kept + [t for t in fresh if t is not None]))
        if flag_failed:
            plan = replace(plan, flag=None, branch_hosts=())
        return plan

    def chain(self) -> tuple[tuple[DefInfo, ...], dict[str, str]] | None:
        """Two or three live functions of one container, each calling the next (maybe through dispatch:
        between the copies, under new names that no dynamic access could reach, the call is certain)."""
        live = {info.qualname: info for info in self.live}
        by_caller = self.repo.index.sites_by_caller()

        def next_of(info: DefInfo, exclude: set[str]) -> list[DefInfo]:
            found = {
                target.callee
                for site in by_caller.get(info.qualname, ())
                for target in site.targets
                if target.certainty is not Certainty.UNRESOLVED  # the copies' own call is checked later
            }
            return [
                live[q]
                for q in sorted(found)
                if q in live and q not in exclude and live[q].container == info.container
            ]

        pairs = [
            (head, second)
            for head in self.live
            if head.container is None or open_class(self.repo.index, self.view, head.container)
            for second in next_of(head, {head.qualname})
            if f"{head.qualname} {second.qualname}" not in self.used.chains
        ]
        self.rng.shuffle(pairs)
        for head, second in pairs:
            members = [head, second]
            thirds = next_of(second, {head.qualname, second.qualname})
            if thirds and self.rng.random() < 0.6:
                members.append(self.rng.choice(thirds))
            self.used.chains.add(f"{head.qualname} {second.qualname}")
            renames = self.copy_names(members)
            if renames is not None:
                return tuple(members), renames
        return None

    def copy_names(self, members: list[DefInfo]) -> dict[str, str] | None:
        """New names for copies of ``members``, one suffix for all, that nothing could reach."""
        suffixes = list(SUFFIXES)
        self.rng.shuffle(suffixes)
        for suffix in suffixes:
            renames = {m.name: _copy_name(m.name, suffix) for m in members}
            if len(set(renames.values())) < len(members) or not all(map(self.fresh, renames.values())):
                continue
            owners = {m.name: m.qualname.rpartition(".")[0] for m in members}
            if any(self.reachable(f"{owners[old]}.{new}") for old, new in renames.items()):
                return None  # dynamic access reaches every new member of that class or module
            self.taken.update(renames.values())
            return renames
        return None

    def reachable(self, qualname: str) -> bool:
        """Whether a dynamic feature of the repository (getattr with a computed name on the class, say)
        could reach a definition of that name, were it planted."""
        index = self.repo.index
        owner, _, name = qualname.rpartition(".")
        escaping = owner in index.escaped or any(owner.startswith(p) for p in index.escaping_module_prefixes)
        by_attribute = owner in index.classes or escaping
        if affecting(index, qualname):
            return True
        return by_attribute and any(
            s.startswith("attr:") and name.startswith(s[5:])
            for record in index.uncertainties
            for s in record.affects
        )

    def twin(self) -> Twin | None:
        """A copy of a live private function of another module, or of a live private method of another
        class, under the same name; a name this module never writes."""
        view = self.view
        facts = self.repo.facts(view)
        if facts.star_import:
            return None
        written, own = facts.words, facts.own
        options: list[tuple[ModuleView, DefInfo, str | None]] = []
        for module in self.repo.testable:
            other = self.repo.view(module)
            if other is None:
                continue
            for info in self.repo.live_functions(other):
                if not is_private(info.name) or info.name in written or info.name in self.taken:
                    continue
                if info.qualname in self.used.twins:
                    continue
                if not self.repo.free_names(info) <= own:
                    continue
                if info.container is None and module != view.name:
                    if not self.reachable(f"{view.name}.{info.name}"):
                        options.append((other, info, None))
                elif info.container is not None and info.name not in self.repo.index.unresolved_attributes:
                    options.extend((other, info, c) for c in self.twin_classes(info))
        if not options:
            return None
        other, info, container = self.rng.choice(options)
        anchor = self.anchor(container)
        if anchor is None:
            return None
        self.used.twins.add(info.qualname)
        self.taken.add(info.name)
        assert isinstance(info.node, FUNCTION)
        typed = [a.annotation for a in ast.walk(info.node.args) if isinstance(a, ast.arg) and a.annotation]
        if info.node.returns is not None:
            typed.append(info.node.returns)
        names_in_types = {n.id for t in typed for n in ast.walk(t) if isinstance(n, ast.Name)}
        strip = not view.future_annotations and not names_in_types <= view.imported_names() | _BUILTINS
        return Twin(other, info, container, anchor, strip)

    def twin_classes(self, method: DefInfo) -> list[str]:
        """Top-level classes of this module that could take a copy of ``method`` under its name without
        overriding or being overridden: no class defining that name is among their ancestors or heirs."""
        index, view = self.repo.index, self.view
        owners = self.repo.method_owners().get(method.name, frozenset())
        found = []
        for info in view.definitions:
            if not (info.top_level and isinstance(info.node, ast.ClassDef)):
                continue
            if not any(isinstance(n, FUNCTION) for n in info.node.body):
                continue
            family = _family(index, info.qualname)
            if family is None or family & owners or not open_class(index, view, info.name):
                continue
            if not self.reachable(f"{info.qualname}.{method.name}"):
                found.append(info.name)
        return found

    def anchor(self, container: str | None) -> str | None:
        """The last live definition of the module (of its class ``container``), else its last one."""
        view = self.view
        if container is None:
            top = [d for d in view.definitions if d.top_level]
        else:
            top = [d for d in view.definitions if d.container == container and d.is_function and d.direct]
        live = [d for d in top if d.executed(view.executed)]
        chosen = live or top
        return chosen[-1].name if chosen else None

    def flag_branches(self, *, alone: bool) -> tuple[str, tuple[DefInfo, ...]] | None:
        """A new flag and the live functions that test it, one or two (always two when the chain and twin
        do not fit: two branches a tool cannot see beat one branch and a return a tool finds). A flag name
        the released tree's index already doubts is never chosen: the patched tree's index has every fact
        of the released one, so it would doubt the flag too."""
        hosts = [i for i in self.hosts if i.qualname not in self.used.hosts]
        if not hosts:
            return None
        count = min(len(hosts), 2 if alone or self.rng.random() < TWO_BRANCHES else 1)
        chosen = sorted(self.rng.sample(hosts, count), key=lambda i: i.node.lineno)
        token = _token(chosen[0].name) or _token(self.view.name.rpartition(".")[2])
        words = list(FLAG_WORDS)
        self.rng.shuffle(words)
        for word in words:
            for flag in (f"_{word}", f"_{word}_{token}" if token else ""):
                if flag and self.fresh(flag) and flag_doubt(self.repo.index, self.view.name, flag) is None:
                    self.used.hosts.update(i.qualname for i in chosen)
                    self.taken.add(flag)
                    return flag, tuple(chosen)
        return None

    def tail_host(self) -> DefInfo | None:
        hosts = []
        for info in self.hosts:
            node = info.node
            assert isinstance(node, FUNCTION)
            if len(node.body) >= 2 and _tail_fits(node.body[-2], node.body[-1]):
                hosts.append(info)
        return self.rng.choice(hosts) if hosts else None

    def import_line(self) -> tuple[int, str, str] | None:
        """An existing ``from .x import y`` of a repository module, and another name ``x`` defines before
        ``y`` (so it is bound whenever ``y`` is, circular imports included) that this module never writes.

        The new name stays out of the module's public API: the module lists its API in ``__all__``, or the
        import binds a private alias.
        """
        view, index = self.view, self.repo.index
        facts = self.repo.facts(view)
        if facts.star_import or view.name in self.repo.starred or view.file.endswith("__init__.py"):
            return None
        listed = any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for n in view.tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
        )
        words = facts.words
        statements = {n.lineno: n for n in view.tree.body if isinstance(n, ast.ImportFrom)}
        options: list[tuple[int, str, str]] = []
        for record in index.imports:
            statement = statements.get(record.line)
            if record.scope != view.name or record.condition is not ImportCondition.ALWAYS or not statement:
                continue
            target = index.definitions.get(record.resolved or "")
            source = self.repo.view(target.parent) if target and target.parent in self.repo.files else None
            if target is None or source is None:
                continue
            origin = "." * statement.level + (statement.module or "")
            for info in source.definitions:
                name = info.name
                if not info.top_level or info.node.lineno >= target.line or name.startswith("_"):
                    continue
                bound = name if listed else f"_{name}"
                if name in words or bound in words or name in _BUILTINS or not self.fresh_import(bound):
                    continue
                alias = "" if listed else f" as {bound}"
                options.append((statement.lineno, f"from {origin} import {name}{alias}\n", bound))
        if not options:
            return None
        choice = self.rng.choice(sorted(set(options)))
        self.taken.add(choice[2])
        return choice

    def fresh_import(self, bound: str) -> bool:
        """Whether a new module-level name ``bound`` is free here and out of reach of dynamic access."""
        index = self.repo.index
        if bound in self.taken or self.reachable(f"{self.view.name}.{bound}"):
            return False
        return not any(
            r.kind is UncertaintyKind.STRING_NAME and f"name:{bound}" in r.affects
            for r in index.uncertainties
        )


def open_class(index: RepoIndex, view: ModuleView, name: str) -> bool:
    """Whether a top-level class of the module has no hidden reader of its methods (and so takes a new one
    unnoticed, and leaves an unreferenced one unused): every ancestor in the repository, no metaclass or
    ``__init_subclass__`` hook, no decorator but the dataclass kind."""
    qualname = f"{view.name}.{name}"
    info = index.classes.get(qualname)
    node = next((d.node for d in view.definitions if d.qualname == qualname), None)
    if info is None or not isinstance(node, ast.ClassDef) or _family(index, qualname) is None:
        return False
    for ancestor in info.mro:
        found = index.classes.get(ancestor)
        if found is None or found.metaclass or f"{ancestor}.__init_subclass__" in index.definitions:
            return False
    return all(ast.unparse(d).startswith(PLAIN_CLASS_DECORATORS) for d in node.decorator_list)


def _family(index: RepoIndex, qualname: str) -> set[str] | None:
    """A class with its ancestors and heirs in the repository; ``None`` when an ancestor lies outside it
    (code the index cannot see could then call any method)."""
    info = index.classes.get(qualname)
    if info is None or any(index.classes[c].external_bases for c in info.mro if c in index.classes):
        return None
    heirs: set[str] = set()
    pending = [qualname]
    subclasses = index.subclass_map()
    while pending:
        for child in subclasses.get(pending.pop(), ()):
            if child not in heirs:
                heirs.add(child)
                pending.append(child)
    return {*info.mro, *heirs}


def _token(name: str) -> str:
    """The first word of a name, upper-cased, for a flag named after what it guards."""
    words = [w for w in re.split(r"_|(?<=[a-z])(?=[A-Z])", name) if w]
    return words[0].upper() if words and words[0].isidentifier() else ""


def _tail_fits(before: ast.stmt, last: ast.stmt) -> bool:
    """A block ending with ``return value`` after one assignment or call (without ``yield`` or ``await``)."""
    if not (isinstance(last, ast.Return) and last.value is not None):
        return False
    if isinstance(before, ast.Expr):
        plain = isinstance(before.value, ast.Call)
    else:
        plain = isinstance(before, ast.Assign | ast.AugAssign) or (
            isinstance(before, ast.AnnAssign) and before.value is not None
        )
    yields = any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in ast.walk(before))
    return plain and not yields and before.lineno != last.lineno


# -- checking the planted code on an index of the patched tree ---------------------------------------------


def planted_doubts(index: RepoIndex, planted: Planted) -> dict[str, str]:
    """Planted items the patched tree's index cannot prove dead, with why (empty when all are certain)."""
    problems: dict[str, str] = {}
    dead = set(planted.definitions)
    imported = {i.resolved for i in index.imports if i.resolved}
    for qualname in planted.definitions:
        if qualname not in index.definitions:
            problems[qualname] = "the index does not see it"
            continue
        callers = index.callers(qualname)
        outside = ({c for c in callers.value if isinstance(c, str)} | set(callers.possible)) - dead
        if outside:
            problems[qualname] = f"called by {min(outside)}"
        elif qualname in index.escaped or qualname in imported:
            problems[qualname] = "used as a value or imported"
        elif doubts := caller_doubts(index, qualname):
            problems[qualname] = doubts[0]
    for position, qualname in enumerate(planted.chain[1:], start=1):
        caller = planted.chain[position - 1]
        if caller not in index.callers(qualname).value:
            problems.setdefault(qualname, f"{caller} does not certainly call it")
    return problems


def flag_doubt(index: RepoIndex, module: str, flag: str) -> str | None:
    """Why code the index cannot follow might rebind the module flag ``flag`` (``None``: nothing can)."""
    qualname = f"{module}.{flag}"
    escaping = module in index.escaped or any(module.startswith(p) for p in index.escaping_module_prefixes)
    affected = {id(record) for record in affecting(index, qualname)}
    for record in index.uncertainties:
        if record.kind not in REBINDING_KINDS:
            continue
        attr = any(s.startswith("attr:") and flag.startswith(s[5:]) for s in record.affects)
        if id(record) in affected or (attr and escaping):
            return f"{record.file}:{record.line}: {record.kind.value}: {record.detail}"
    return None


class _Scratch:
    """A private copy of the repository's Python files, where one module at a time is patched, with its own
    index cache (a patched tree re-parses only the patched file) and vulture's scan of every file."""

    def __init__(self, root: Path, folder: Path) -> None:
        self.root = folder / root.name
        self.index_cache = folder / "index-cache"
        self.loaded: LoadedSummaries = {}  # every patched tree shares the summaries of its unchanged files
        shutil.copytree(root, self.root, symlinks=True, ignore=_not_python)
        self.vulture = VultureTree(self.root)
        with contextlib.suppress(OSError):
            self._warm(root)

    def _warm(self, source: Path) -> None:
        """Copy the default cache's summaries of the released files into the scratch's index cache (the
        repository's own index put them there), so the first index of the scratch tree parses only the
        patched file; a summary is keyed by the file's content and module, not by where the tree lies."""
        shared = IndexCache.open(source, None, ANALYZER_VERSION)
        own = IndexCache.open(self.root, self.index_cache, ANALYZER_VERSION)
        if shared is None or own is None:
            return
        files = discover(self.root).files
        keys = [summary_key(hashlib.sha256(f.path.read_bytes()).hexdigest(), f) for f in files]
        own.copy_summaries_from(shared, keys)

    def patched(self, file: str, text: str) -> contextlib.AbstractContextManager[Path]:
        return _patched(self.root / file, text)

    def index(self) -> RepoIndex:
        """The index of the tree as patched now. No patched tree is indexed twice, so the whole index is not
        saved: the next build would load it only to find it stale."""
        return build_index(self.root, cache=self.index_cache, save_index=False, loaded=self.loaded)


def _not_python(directory: str, names: list[str]) -> list[str]:
    return [
        n for n in names if n == ".git" or (Path(directory, n).is_file() and not n.endswith((".py", ".pyi")))
    ]


@contextlib.contextmanager
def _patched(path: Path, text: str) -> Iterator[Path]:
    original = path.read_bytes()
    path.write_text(text, encoding="utf-8")
    try:
        yield path
    finally:
        path.write_bytes(original)


# -- the answer --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """The verifier's sets: the reference answer, live items (costly to claim), undecidable ones (free)."""

    required: frozenset[str]
    forbidden: frozenset[str]
    ignored: frozenset[str]
    candidates: frozenset[str]


class _Sorter:
    """Puts each item in one set: required beats forbidden beats ignored."""

    def __init__(self) -> None:
        self.sets: dict[str, set[str]] = {"required": set(), "forbidden": set(), "ignored": set()}

    def put(self, item: str, where: str) -> None:
        order = ("required", "forbidden", "ignored")
        for better in order[: order.index(where)]:
            if item in self.sets[better]:
                return
        for worse in order[order.index(where) + 1 :]:
            self.sets[worse].discard(item)
        self.sets[where].add(item)


def classify(
    view: ModuleView, planted: Planted, original_dead: set[str], tree: ast.Module | None = None
) -> Answer:
    """Sort every item of the patched module into required, forbidden and ignored (``tree``: the patched
    text parsed, when the caller has it)."""
    tree = tree if tree is not None else ast.parse(planted.text)
    executed = frozenset(planted.lines[line] for line in view.executed if line in planted.lines)
    nodes = _Nodes.of(tree)
    sorter = _Sorter()
    dead_spans: list[tuple[int, int]] = []
    definitions = []

    def inside_dead(line: int) -> bool:
        return any(start <= line <= end for start, end in dead_spans)

    for info in walk_definitions(tree, view.name):
        definitions.append(info.qualname)
        if inside_dead(info.node.lineno):
            sorter.put(info.qualname, "ignored")
        elif info.qualname in planted.definitions or info.qualname in original_dead:
            sorter.put(info.qualname, "required")
            dead_spans.append(info.span)
        elif info.executed(executed):
            sorter.put(info.qualname, "forbidden")
        else:
            sorter.put(info.qualname, "ignored")
    for line, block in _branches(nodes.ifs, split_lines(planted.text)):
        item = branch_item(view.name, line)
        if line in planted.branch_lines:
            sorter.put(item, "required")
        elif inside_dead(line):
            sorter.put(item, "ignored")
        elif any(
            n in executed for n in range(block[0].lineno, (block[-1].end_lineno or block[-1].lineno) + 1)
        ):
            sorter.put(item, "forbidden")
        else:
            sorter.put(item, "ignored")
    for line, statement in _unreachable(nodes.blocks):
        item = unreachable_item(view.name, line)
        yields = any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(statement))
        sorter.put(item, "ignored" if inside_dead(line) or yields else "required")
    for block in nodes.blocks:  # after sys.exit(), an always-raising call, a loop that never ends...
        for statement in block[1:]:
            if statement.lineno not in executed:
                sorter.put(unreachable_item(view.name, statement.lineno), "ignored")
    used = {name.id for name in nodes.loads if name.lineno in executed}
    for name, where in _imports(tree, used, planted.import_name):
        sorter.put(import_item(view.name, name), where)
    for original in planted.twins_of:
        sorter.put(original, "forbidden")
    sets = sorter.sets
    candidates = frozenset(definitions) - sets["required"]
    return Answer(
        frozenset(sets["required"]), frozenset(sets["forbidden"]), frozenset(sets["ignored"]), candidates
    )


@dataclass(frozen=True, slots=True)
class _Nodes:
    """What the classification reads of a tree, gathered in one walk: every statement list (bodies of
    definitions, branches, handlers and cases included), every ``if`` and every name read."""

    blocks: tuple[list[ast.stmt], ...]
    ifs: tuple[ast.If, ...]
    loads: tuple[ast.Name, ...]

    @classmethod
    def of(cls, tree: ast.AST) -> _Nodes:
        blocks: list[list[ast.stmt]] = []
        ifs: list[ast.If] = []
        loads: list[ast.Name] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    loads.append(node)
            elif isinstance(node, _HOLDS_BLOCKS):  # no other node has a statement list
                if isinstance(node, ast.If):
                    ifs.append(node)
                for name in ("body", "orelse", "finalbody"):
                    value = getattr(node, name, None)
                    if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                        blocks.append(value)
        return cls(tuple(blocks), tuple(ifs), tuple(loads))


_HOLDS_BLOCKS = (ast.stmt, ast.mod, ast.excepthandler, ast.match_case)


def _branches(ifs: Iterable[ast.If], lines: list[str]) -> Iterator[tuple[int, list[ast.stmt]]]:
    """``(line of the if/elif/else keyword, its block)`` for every ``if`` statement."""
    for node in ifs:
        yield node.lineno, node.body
        orelse = node.orelse
        if not orelse:
            continue
        first = orelse[0]
        if (
            isinstance(first, ast.If)
            and len(orelse) == 1
            and lines[first.lineno - 1].lstrip().startswith("elif")
        ):
            continue
        end = node.body[-1].end_lineno or node.body[-1].lineno
        for number in range(end + 1, first.lineno + 1):
            if re.match(r"\s*else\s*:", lines[number - 1]):
                yield number, orelse
                break


def _unreachable(blocks: Iterable[list[ast.stmt]]) -> Iterator[tuple[int, ast.stmt]]:
    """``(line, statement)`` for the first statement after a ``return``/``raise``/``continue``/``break``."""
    for block in blocks:
        for position, statement in enumerate(block[:-1]):
            if isinstance(statement, ast.Return | ast.Raise | ast.Continue | ast.Break):
                yield block[position + 1].lineno, block[position + 1]
                break


def _imports(tree: ast.Module, used: set[str], planted: str | None) -> Iterator[tuple[str, str]]:
    """``(bound name, set)`` for every module-level import binding (``used``: the names read on executed
    lines)."""

    def visit(body: list[ast.stmt], guarded: bool) -> Iterator[tuple[str, str]]:
        for statement in body:
            if isinstance(statement, ast.Import | ast.ImportFrom):
                future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
                for alias in statement.names:
                    if alias.name == "*":
                        continue
                    name = (alias.asname or alias.name).partition(".")[0]
                    if name == planted:
                        yield name, "required"
                    elif future or guarded:
                        yield name, "ignored"
                    else:
                        yield name, "forbidden" if name in used else "ignored"
            elif not isinstance(statement, (*FUNCTION, ast.ClassDef)):
                checking = isinstance(statement, ast.If) and "TYPE_CHECKING" in ast.unparse(statement.test)
                for block in blocks_of(statement):
                    yield from visit(block, guarded or checking)

    yield from visit(tree.body, False)


# -- vulture ------------------------------------------------------------------------------------------------


_VULTURE_LISTS = (
    "defined_attrs",
    "defined_classes",
    "defined_funcs",
    "defined_imports",
    "defined_methods",
    "defined_props",
    "defined_vars",
    "unreachable_code",
)
_VULTURE_DEFINED = tuple(name for name in _VULTURE_LISTS if name != "unreachable_code")


def _whitelist_names(module: str) -> frozenset[str]:
    """The names vulture's whitelist of ``module`` uses (none when it has no whitelist), as its scavenge
    scans them."""
    try:
        data = pkgutil.get_data("vulture", str(Path("whitelists") / f"{module}_whitelist.py"))
    except OSError:
        return frozenset()
    assert data is not None
    scanner = vulture.Vulture(verbose=False)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        scanner.scan(data.decode("utf-8"), filename=Path("whitelists") / f"{module}_whitelist.py")
    return frozenset(scanner.used_names)


class VultureTree:
    """vulture over a whole tree, each file scanned once: a task's patched module is scanned anew and merged
    with the kept scans of the other files, which is what a scan of the whole tree finds (vulture's findings
    depend on the names defined and used across files, collected file by file). The files are read when the
    tree is made: the kept scans are of the released files, whatever is patched when one is first needed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = sorted(Path(p) for p in vulture.utils.get_modules([root]))
        self._released = {file: _vulture_text(file) for file in self.files}
        self._scans: dict[Path, vulture.Vulture] = {}
        self._whitelists: dict[str, frozenset[str]] = {}
        self._names: dict[Path, frozenset[str]] = {}
        self._users: Counter[str] | None = None
        self._file_set = frozenset(self.files)
        self._resolved = Counter(file.resolve() for file in self.files)  # a file listed twice, by a link

    def _scan(self, path: Path, text: str) -> vulture.Vulture:
        scanner = vulture.Vulture(verbose=False)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            scanner.scan(text, filename=path)
        return scanner

    def _kept(self, path: Path) -> vulture.Vulture:
        if path not in self._scans:
            self._scans[path] = self._scan(path, self._released[path])
        return self._scans[path]

    def unused(self, path: Path, text: str) -> list[Any]:
        """vulture's unused code in the tree with ``path`` holding ``text``."""
        merged = vulture.Vulture(verbose=False)
        for file in self.files:
            part = self._scan(file, text) if file == path else self._kept(file)
            for name in _VULTURE_LISTS:
                getattr(merged, name).extend(getattr(part, name))
            merged.used_names |= part.used_names
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            merged.scavenge([])  # no files: only the whitelists of the imported modules, as a full scan adds
            return list(merged.get_unused_code(min_confidence=0))

    def items(self, path: Path, module: str, text: str, tree: ast.Module | None = None) -> list[str]:
        """vulture's findings in the module at ``path`` (holding ``text``, parsed as ``tree``), named as our
        items."""
        alone = path in self._file_set and self._resolved[path.resolve()] == 1
        unused = self.unused_in(path, text) if alone else self.unused(path, text)
        return vulture_findings(unused, path, module, text, tree)

    def unused_in(self, path: Path, text: str) -> list[Any]:
        """What :meth:`unused` finds in the file ``path`` (no other file of the tree being the same file):
        its definitions whose name no file of the tree, nor a whitelist of a module they import, uses, and
        its unreachable code. The names the other files use are gathered once per file."""
        scan = self._scan(path, text)
        used = scan.used_names | self._whitelisted(scan)
        users, kept = self._name_users(), self._names_of(path)
        found = [
            item
            for name in _VULTURE_DEFINED
            for item in getattr(scan, name)
            if item.name not in used and users[item.name] - (item.name in kept) <= 0
        ]
        return found + list(scan.unreachable_code)

    def _names_of(self, file: Path) -> frozenset[str]:
        """Names the file as released uses, and the whitelists of what it imports."""
        if file not in self._names:
            kept = self._kept(file)
            self._names[file] = frozenset(kept.used_names | self._whitelisted(kept))
        return self._names[file]

    def _name_users(self) -> Counter[str]:
        """Name -> how many files of the tree use it (:meth:`_names_of`): a name is used outside a file when
        more files use it than that file's own use accounts for."""
        if self._users is None:
            self._users = Counter(name for file in self.files for name in self._names_of(file))
        return self._users

    def _whitelisted(self, scan: vulture.Vulture) -> set[str]:
        """Names used by vulture's whitelists of the modules ``scan`` imports (each scanned once)."""
        used: set[str] = set()
        for name in {item.name for item in scan.defined_imports}:
            if name not in self._whitelists:
                self._whitelists[name] = _whitelist_names(name)
            used |= self._whitelists[name]
        return used


def _vulture_text(path: Path) -> str:
    """A file as vulture reads it (empty when it cannot)."""
    try:
        return str(vulture.utils.read_file(path))
    except vulture.utils.VultureInputException:
        return ""


def vulture_items(tree_root: Path, path: Path, module: str, text: str) -> list[str]:
    """Vulture's findings in the module at ``path`` (scanning the whole tree), named as our items."""
    scanner = vulture.Vulture(verbose=False)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        scanner.scavenge([str(tree_root)])
        unused = scanner.get_unused_code(min_confidence=0)
    return vulture_findings(unused, path, module, text)


def vulture_findings(
    unused: Iterable[Any], path: Path, module: str, text: str, tree: ast.Module | None = None
) -> list[str]:
    """The items of ``unused`` (vulture's findings) that lie in the module at ``path`` (``tree``: ``text``
    parsed, when the caller has it)."""
    tree = tree if tree is not None else ast.parse(text)
    by_line: dict[int, str] = {}
    for info in walk_definitions(tree, module):
        by_line[info.node.lineno] = info.qualname
        by_line.setdefault(info.span[0], info.qualname)
    found: list[str] = []
    wanted = path.resolve()
    for item in unused:
        if Path(item.filename).resolve() != wanted:
            continue
        if item.typ in ("function", "method", "class") and item.first_lineno in by_line:
            found.append(by_line[item.first_lineno])
        elif item.typ == "import":
            found.append(import_item(module, str(item.name).partition(".")[0]))
        elif item.typ == "unreachable_code":
            message = str(item.message)
            if "after" in message:
                found.append(unreachable_item(module, item.first_lineno))
            elif "'if'" in message:
                found.append(branch_item(module, item.first_lineno))
    return sorted(set(found))


# -- the generator ------------------------------------------------------------------------------------------


@register
class DeadCodeGenerator(Generator):
    name = "dead-code"
    kinds = (TaskKind.DEAD_CODE,)
    description = "all dead code of a module, with dead code planted that no existing tool finds"

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        evidence = source.evidence()
        if not evidence.ran:
            yield Drop(kind, DropReason.NO_EVIDENCE, source.repo.name, evidence.error or "")
            return
        try:
            repo = _Repository(source, evidence)
            folder = tempfile.TemporaryDirectory(prefix="dure-dead-code-")
        except Exception as problem:  # a broken tree ends this kind for this repository, never the run
            yield Drop(kind, DropReason.ERROR, source.repo.name, f"{type(problem).__name__}: {problem}")
            return
        with folder:
            try:
                scratch = _Scratch(source.root, Path(folder.name))
            except OSError as problem:
                yield Drop(kind, DropReason.ERROR, source.repo.name, f"cannot copy the tree: {problem}")
                return
            yield from _module_tasks(repo, scratch, kind)


def _module_tasks(repo: _Repository, scratch: _Scratch, kind: TaskKind) -> Iterator[Candidate | Drop]:
    """Every module's first task in a seeded order, then the second ones, and so on; the drops of first
    tasks only (a later task that does not fit is no question declined). The first plans of
    ``CHECKED_TOGETHER`` modules at a time are checked on one index of the tree with all of them planted."""
    rng = repo.source.rng(kind)
    seed = rng.getrandbits(64)
    order = list(repo.testable)
    rng.shuffle(order)
    used = {module: _Used() for module in order}
    # A task parses and scans whole modules while two indexes (millions of objects) stay alive: every full
    # collection would walk them again, for the few cycles a task makes (vulture's scanners), collected after
    # it (measured: vulture's scans 2.0 -> 1.2 s CPU over the benchmark).
    for variant in range(VARIANTS):
        for start in range(0, len(order), CHECKED_TOGETHER):
            with cyclic_gc.paused(aged=False):
                batch = [
                    _ModuleTask.start(repo, kind, module, variant=variant, seed=seed, used=used[module])
                    for module in order[start : start + CHECKED_TOGETHER]
                ]
                _check_together(scratch, [task for task in batch if isinstance(task, _ModuleTask)])
            for task in batch:
                with cyclic_gc.paused(aged=False):
                    result = task.finish(scratch) if isinstance(task, _ModuleTask) else task
                if variant == 0 or isinstance(result, Candidate):
                    yield result


def _check_together(scratch: _Scratch, tasks: list[_ModuleTask]) -> None:
    """Check the planted code of ``tasks`` (each in its own module) on one index of the tree with all of it
    planted, and accept each task the index has no doubt about. Planting only adds code, so whatever could
    reach a task's planted items in its own patched tree is in this one too: no doubt here is no doubt
    there. A task with a doubt here is checked again alone (another module's planted code may be what the
    index doubts). Where a patched file does not parse, the index would miss its module: nothing is
    accepted."""
    pending = [task for task in tasks if task.planted is not None]
    if len(pending) < 2:
        return
    try:
        with contextlib.ExitStack() as stack:
            for task in pending:
                assert task.planted is not None
                stack.enter_context(scratch.patched(task.view.file, task.planted.text))
            index = scratch.index()
    except Exception:  # each task is then checked alone, which reports its own failure
        return
    patched = {task.view.file for task in pending}
    if any(d.path in patched for d in index.diagnostics):
        return
    for task in pending:
        try:
            task.judge(index, alone=False)
        except Exception:  # checked alone, which reports it
            continue


class _ModuleTask:
    """One task about a module: plant, check the planted code on an index of the patched tree (planting
    something else where it fails, at most ``ATTEMPTS`` times), and write the task."""

    def __init__(self, repo: _Repository, kind: TaskKind, view: ModuleView, variant: int, planner: _Planner):
        self.repo, self.kind, self.view, self.variant, self.planner = repo, kind, view, variant, planner
        self.plan = planner.plan()
        self.planted: Planted | None = None  # the code being checked; None once the task is decided
        self.accepted: Planted | None = None
        self.outcome: Drop | None = None
        self.doubts: list[str] = []
        self.attempts = 0
        self._plant()

    @classmethod
    def start(
        cls, repo: _Repository, kind: TaskKind, module: str, *, variant: int, seed: int, used: _Used
    ) -> _ModuleTask | Drop:
        """The task with its first plan planted, or the drop that ends it at once."""
        try:
            view = repo.view(module)
            if view is None:
                return Drop(kind, DropReason.ERROR, module, "the module does not read or parse")
            rng = random.Random(f"{seed}:{module}:{variant}")
            return cls(repo, kind, view, variant, _Planner(repo, view, rng, used))
        except Exception as problem:  # one module's failure is a drop, the others go on
            return Drop(kind, DropReason.ERROR, module, f"{type(problem).__name__}: {problem}")

    def _plant(self) -> None:
        """Plant the current plan, or decide the task when no attempt is left or the plan is too thin."""
        self.planted = None
        plan, name = self.plan, self.view.name
        if self.attempts == ATTEMPTS or plan.hard_kinds < MIN_HARD_KINDS[self.variant > 0]:
            if self.doubts:
                self.outcome = Drop(self.kind, DropReason.UNCERTAIN, name, "; ".join(self.doubts)[:500])
            else:
                reason = f"only {plan.hard_kinds} kind(s) of hard dead code fit"
                self.outcome = Drop(self.kind, DropReason.TRIVIAL, name, reason)
            return
        self.attempts += 1
        try:
            self.planted = plant(self.view, plan)
        except InjectionError as problem:
            self.outcome = Drop(self.kind, DropReason.UNCHECKABLE, name, str(problem))

    def judge(self, index: RepoIndex, *, alone: bool) -> None:
        """Accept the planted code when ``index`` has no doubt about it; else, on the index of this task's
        own patched tree (``alone``), plant something else."""
        planted = self.planted
        assert planted is not None
        problems = planted_doubts(index, planted)
        flag = flag_doubt(index, self.view.name, self.plan.flag) if self.plan.flag else None
        if not problems and flag is None:
            self.accepted, self.planted = planted, None
        elif alone:
            self.doubts += [f"{name}: {why}" for name, why in sorted(problems.items())] + (
                [flag] if flag else []
            )
            self.plan = self.planner.replan(self.plan, planted, problems, flag_failed=flag is not None)
            self._plant()

    def finish(self, scratch: _Scratch) -> Candidate | Drop:
        """The task, checking what is still pending alone."""
        try:
            while self.planted is not None:
                with scratch.patched(self.view.file, self.planted.text):
                    index = scratch.index()
                self.judge(index, alone=True)
            if self.accepted is None:
                assert self.outcome is not None
                return self.outcome
            planted, view = self.accepted, self.view
            tree = ast.parse(planted.text)
            baseline = scratch.vulture.items(scratch.root / view.file, view.name, planted.text, tree)
            return _candidate(
                self.repo, self.kind, view, self.plan, planted=planted, baseline=baseline, tree=tree
            )
        except Exception as problem:  # one module's failure is a drop, the others go on
            return Drop(self.kind, DropReason.ERROR, self.view.name, f"{type(problem).__name__}: {problem}")


def _candidate(
    repo: _Repository,
    kind: TaskKind,
    view: ModuleView,
    plan: Plan,
    *,
    planted: Planted,
    baseline: list[str],
    tree: ast.Module,
) -> Candidate | Drop:
    answer = classify(view, planted, repo.original_dead(view), tree)
    if len(answer.required) < MIN_ANSWER:
        return Drop(kind, DropReason.TRIVIAL, view.name, f"only {len(answer.required)} item(s) of dead code")
    source = repo.source
    workspace = _workspace(view, planted)
    prompt = PROMPT.format(
        repo=source.repo.name, version=source.repo.version, module=view.name, file=view.file
    )
    params = {
        "ignored": sorted(answer.ignored),
        "forbidden": sorted(answer.forbidden),
        "candidates": sorted(answer.candidates),
    }
    files = [view.file, *(t.module.file for t in plan.twins)]
    fan_in, fan_out = _fans(repo.index, view.name)
    difficulty = features(
        hops=max(len(planted.chain), 1),
        files=files,
        answer_size=len(answer.required),
        fan_in=fan_in,
        fan_out=fan_out,
    )
    kinds = [
        name
        for name, present in (
            ("chain", bool(planted.chain)),
            ("twin", bool(planted.twins)),
            ("flag-branch", bool(planted.branch_lines)),
            ("unreachable", planted.tail_line is not None),
            ("import", planted.import_name is not None),
        )
        if present
    ]
    facts = provenance(
        source,
        kind,
        planted=kinds,
        planted_items=len(planted.definitions)
        + len(planted.branch_lines)
        + sum(x is not None for x in (planted.tail_line, planted.import_name)),
        original_dead=len(answer.required) - len(planted.definitions),
        evidence="coverage",
        tests_passed=repo.evidence.passed,
    )
    task = make_task(
        kind=kind,
        repo=source.repo,
        prompt=prompt,
        inputs={"symbol": view.name, "module": view.name, "file": view.file},
        answer=sorted(answer.required),
        answer_schema=ANSWER_SCHEMA,
        verifier=VerifierSpec("set", freeze_object(params)),
        phase=phase_of(1, difficulty),
        workspace=workspace,
        difficulty=difficulty,
        provenance=facts,
    )
    task = _with_baseline(task, baseline)
    audit = audit_task(task)
    if not audit.ok:
        return Drop(kind, DropReason.AUDIT, view.name, audit.reason or "")
    secrets = (*sorted(answer.required), *(q.rpartition(".")[2] for q in planted.definitions))
    return Candidate(task, secrets=secrets + ((plan.flag,) if plan.flag else ()))


def _workspace(view: ModuleView, planted: Planted) -> str:
    return make_patch({view.file: (view.text, planted.text)})


def _with_baseline(task: Task, baseline: list[str]) -> Task:
    """The task with vulture's score in its audit record (the id does not cover the audit)."""
    required = len(task.answer) if isinstance(task.answer, tuple) else 0
    found = len(set(baseline) & {str(item) for item in task.answer}) if isinstance(task.answer, tuple) else 0
    value = score_answer(task, tuple(baseline)).value
    record = {
        "vulture": {"score": round(value, 4), "found": found, "required": required, "listed": len(baseline)}
    }
    return replace(task, audit=freeze_object(record))


def _fans(index: RepoIndex, module: str) -> tuple[int, int]:
    """How many repository modules import ``module``, and how many it imports."""
    importers: set[str] = set()
    imported: set[str] = set()
    for record in index.imports:
        target = index.definitions.get(record.resolved or "")
        if target is None:
            continue
        if target.module == module and record.module != module:
            importers.add(record.module)
        elif record.module == module and target.module != module:
            imported.add(target.module)
    return len(importers), len(imported)


__all__ = [
    "ANSWER_SCHEMA",
    "DeadCodeGenerator",
    "VultureTree",
    "branch_item",
    "classify",
    "import_item",
    "plant",
    "unreachable_item",
    "vulture_items",
    "walk_definitions",
]
