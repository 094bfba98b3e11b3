"""``type-completion``: restore the stripped annotations of one to five functions of a module.

Targets are functions and methods whose every parameter (``self``/``cls`` aside) and return is annotated,
in modules the pinned checker runs on. Their annotations are removed with LibCST, so every other byte of the
file stays; the answer maps each slot (:mod:`dure.verifiers.typeslots`) to the annotation as written. Slots
the ``types`` verifier cannot judge are never asked: a top type (``Any``, ``object``: any answer would do as
well), ``@overload`` signatures, names defined twice, type strings it does not parse, and types from
imports the checker cannot resolve (it takes them as ``Any``, and ``assert_type`` would then accept any
other name from the same import).

The checker's errors on the module with its reference annotations (the baseline) go into the task, so a
module need not be clean; clean modules come first. A module's baseline is shared by all its tasks whose
stripping keeps line numbers, and the baselines of eight modules at a time take one checker run; modules
take turns, so a repository's first tasks come from different modules and the checker runs only on the
modules the pipeline gets to. The pipeline audits the tasks it still needs together
(``audit_in_batches``), so their self-audits share checker runs too.
"""

from __future__ import annotations

import ast
import functools
import random
import re
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import libcst as cst

from dure.analyzers.model import DefinitionKind
from dure.corpus.fetch import list_cached
from dure.generators import difficulty
from dure.generators._registry import register
from dure.generators.base import Candidate, Drop, DropReason, Generator, Source, provenance
from dure.tasks.frozen import freeze_object
from dure.tasks.model import LAYER_OF_KIND, Task, TaskKind, VerifierSpec, make_task
from dure.verifiers.headers import headers, rewrite_headers
from dure.verifiers.parsing import parsed
from dure.verifiers.typecheck import Diagnostic, checker_version
from dure.verifiers.typenorm import TOP_TYPES, Canon, UnsafeType, parse_type, split_union
from dure.verifiers.types import Baselined, baseline_of, baselines_with
from dure.verifiers.typeslots import ModuleScopes, SlotError, build_template, module_scopes
from dure.workspace import make_patch

MAX_FUNCTIONS = 5
SETTLED_TOGETHER = 8  # modules whose baselines share one checker run
MAX_SLOTS = 8  # a wrong answer costs the audit about two checker runs per slot (0.4 s each, warm)
ENGINE = "mypy"
STRICT = ("--strict",)
INLINE_LIMIT = 4_000_000  # characters of source a task may carry for a repository outside the corpus cache
SOURCE_SUFFIXES = (".py", ".pyi")
SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".hg", ".tox", ".nox", ".venv", "venv", ".mypy_cache"})
_DOTTED = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*")

ANSWER_FORMAT = (
    "Answer with one JSON object, inside <answer></answer> tags or a ```json fenced block. Its keys are "
    "exactly the slots listed; each value is a string holding the Python annotation expression for that "
    "slot, written as it would stand in the module (with the names the module defines and imports)."
)


@dataclass(frozen=True, slots=True)
class Signature:
    """One function's annotations as written, and why it is not asked (``problem``; ``None`` when it is).

    ``reason`` is the drop reason for a problem worth counting; a function that is simply not fully
    annotated is no question at all, and has a problem but no reason.
    """

    qualname: str  # inside the module, e.g. ``Class.method``
    slots: tuple[tuple[str, str], ...]  # (``return`` or ``param:<name>``, annotation text)
    problem: str | None = None
    reason: DropReason | None = None


@dataclass(frozen=True, slots=True)
class ModuleFile:
    """A module and where it lives: ``file`` from the repository root, ``path`` from its import root."""

    module: str
    file: str
    root: str
    path: str
    tier: int  # 0 for modules of a regular package, 1 for scripts, docs and other loose modules

    @property
    def is_package(self) -> bool:
        return self.path.endswith("__init__.py")


@dataclass
class _ModulePlan:
    """A module's text and scopes, its askable functions grouped into tasks, and its baseline once known."""

    where: ModuleFile
    text: str
    scopes: ModuleScopes
    askable: list[Signature]
    groups: deque[tuple[Signature, ...]] = field(default_factory=deque)
    files: dict[str, str] | None = None  # the import root's other sources, for a repository not in the cache
    baseline: tuple[str, ...] | None = None  # shared by the tasks that keep line numbers
    clean: bool = False


@register
class TypeCompletionGenerator(Generator):
    name = "type-completion"
    kinds = (TaskKind.TYPE_COMPLETION,)
    description = "restore the stripped parameter and return annotations of 1-5 functions of a module"
    audit_in_batches = True  # a repository's audits share mypy runs

    def candidates(self, source: Source, kind: TaskKind) -> Iterator[Candidate | Drop]:
        rng = source.rng(kind)
        try:
            modules = _ordered(_module_files(source), rng)
            inline = not any(cached.sha256 == source.repo.sha256 for cached in list_cached())
        except Exception as problem:  # a broken repository ends this kind, never the run
            yield Drop(kind, DropReason.ERROR, source.repo.name, _describe(problem))
            return
        clean: deque[_ModulePlan] = deque()
        unclean: deque[_ModulePlan] = deque()  # their tasks wait until the clean modules' are taken
        inlined: dict[str, dict[str, str] | None] | None = {} if inline else None
        remaining = iter(modules)
        while prepared := _prepare(source, kind, remaining, rng, inlined):
            for drops, plan in prepared:
                yield from drops
                if plan is not None and plan.clean:
                    yield _next_candidate(source, kind, plan)
                    clean.append(plan)
                elif plan is not None:
                    unclean.append(plan)
        yield from _in_turn(source, kind, clean)
        yield from _in_turn(source, kind, unclean)


def _prepare(
    source: Source,
    kind: TaskKind,
    modules: Iterator[ModuleFile],
    rng: random.Random,
    inlined: dict[str, dict[str, str] | None] | None,
) -> list[tuple[list[Drop], _ModulePlan | None]]:
    """The drops and the plan of each of the next modules, in order, with no plan for a module that has
    nothing to ask; taken until ``SETTLED_TOGETHER`` of them have something to ask, whose baselines then
    take one checker run (never raises; empty when no module is left).

    ``inlined`` caches the sources put in the tasks of a repository outside the corpus cache (``None``
    for a repository in the cache, whose tasks name it instead).
    """
    prepared: list[tuple[list[Drop], _ModulePlan | None]] = []
    asking = 0
    for where in modules:
        drops: list[Drop] = []
        try:
            plan, records = _plan(source, where)
            drops += [Drop(kind, reason, subject, detail) for reason, subject, detail in records]
            if plan.askable and inlined is not None:
                plan.files = _inline_files(source, where, inlined)
                if plan.files is None:
                    detail = "too much source for a task"
                    drops.append(Drop(kind, DropReason.UNCHECKABLE, where.module, detail))
                    plan.askable = []
        except Exception as problem:  # a weird module ends that module, never the run
            drops.append(Drop(kind, DropReason.ERROR, where.module, _describe(problem)))
            prepared.append((drops, None))
            continue
        prepared.append((drops, plan if plan.askable else None))
        asking += bool(plan.askable)
        if asking == SETTLED_TOGETHER:
            break
    settling: list[tuple[list[Drop], _ModulePlan, _SettleRequest]] = []
    for drops, askable in prepared:
        if askable is None:
            continue
        try:
            settling.append((drops, askable, _settle_request(source, kind, askable)))
        except Exception as problem:  # a weird module ends that module, never the run
            drops.append(Drop(kind, DropReason.ERROR, askable.where.module, _describe(problem)))
    checks = [request.check for _, _, request in settling if request.check is not None]
    checked = iter(baselines_with(checks))
    for module_drops, plan, request in settling:
        outcome = next(checked) if request.check is not None else request.problem
        assert outcome is not None
        try:
            module_drops.extend(_settle(kind, plan, request, outcome, rng))
        except Exception as problem:
            module_drops.append(Drop(kind, DropReason.ERROR, plan.where.module, _describe(problem)))
            plan.groups.clear()
    return [(drops, plan if plan is not None and plan.groups else None) for drops, plan in prepared]


def _in_turn(source: Source, kind: TaskKind, plans: deque[_ModulePlan]) -> Iterator[Candidate | Drop]:
    """One candidate from each module in turn, until every module's groups are used up."""
    while plans:
        plan = plans.popleft()
        if plan.groups:
            yield _next_candidate(source, kind, plan)
        if plan.groups:
            plans.append(plan)


def _describe(problem: BaseException) -> str:
    return f"{type(problem).__name__}: {str(problem)[:300]}"


# -- modules ---------------------------------------------------------------------------------------------


def import_root(file: str, module: str) -> tuple[str, str] | None:
    """``(root, path)``: the import root of ``file`` and the file's path from there, or ``None`` when the
    dotted ``module`` does not name that file (a flat layout has root ``""``, a ``src`` layout ``"src"``)."""
    parts = PurePosixPath(file).parts
    names = module.split(".")
    if not parts or not all(name.isidentifier() for name in names):
        return None
    expected = [*names, "__init__.py"] if parts[-1] == "__init__.py" else [*names[:-1], f"{names[-1]}.py"]
    if len(parts) < len(expected) or list(parts[-len(expected) :]) != expected:
        return None
    return "/".join(parts[: -len(expected)]), "/".join(expected)


def _module_files(source: Source) -> list[ModuleFile]:
    """The repository's non-test modules that the checker can import by their dotted names."""
    found = []
    for qualname, definition in sorted(source.index.definitions.items()):
        if definition.kind is not DefinitionKind.MODULE or definition.is_test:
            continue
        located = import_root(definition.file, qualname)
        if located is None:
            continue
        root, path = located
        package = source.root / root / qualname.partition(".")[0] / "__init__.py"
        found.append(ModuleFile(qualname, definition.file, root, path, 0 if package.is_file() else 1))
    return found


def _ordered(modules: list[ModuleFile], rng: random.Random) -> list[ModuleFile]:
    """Package modules first, then loose ones (scripts, docs), in a seeded random order within each."""
    keyed = [(module.tier, rng.random(), module.module, module) for module in modules]
    keyed.sort(key=lambda item: item[:3])
    return [item[3] for item in keyed]


def _inline_files(
    source: Source, where: ModuleFile, done: dict[str, dict[str, str] | None]
) -> dict[str, str] | None:
    """The sources of the module's import root but the module itself (``None`` when there is too much)."""
    if where.root not in done:
        base = source.root / where.root
        found: dict[str, str] = {}
        for path in sorted(base.rglob("*")):
            relative = path.relative_to(base)
            if set(relative.parts) & SKIPPED_DIRS or not path.is_file():
                continue
            if path.suffix in SOURCE_SUFFIXES or path.name == "py.typed":
                found[relative.as_posix()] = path.read_text(encoding="utf-8", errors="replace")
        done[where.root] = found if sum(map(len, found.values())) <= INLINE_LIMIT else None
    files = done[where.root]
    return None if files is None else {path: text for path, text in files.items() if path != where.path}


# -- signatures ------------------------------------------------------------------------------------------


def _decorator_name(decorator: cst.Decorator) -> str:
    node = decorator.decorator
    if isinstance(node, cst.Call):
        node = node.func
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return node.value if isinstance(node, cst.Name) else ""


def _parameters(node: cst.FunctionDef) -> list[cst.Param]:
    params = node.params
    every = [*params.posonly_params, *params.params]
    if isinstance(params.star_arg, cst.Param):
        every.append(params.star_arg)
    every += params.kwonly_params
    if params.star_kwarg is not None:
        every.append(params.star_kwarg)
    return every


def _receiver(node: cst.FunctionDef, in_class: bool) -> cst.Param | None:
    """The ``self``/``cls`` parameter of a method (none for a static method or a plain function)."""
    if not in_class or any(_decorator_name(d) == "staticmethod" for d in node.decorators):
        return None
    positional = [*node.params.posonly_params, *node.params.params]
    return positional[0] if positional else None


class _Functions(cst.CSTVisitor):
    """The functions that can have slots, in source order: those at module level and in classes.

    It walks as the verifier's template does (:func:`dure.verifiers.typeslots.build_template`): not into
    functions, so neither nested functions nor classes inside functions are found.
    """

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []  # (name, is a class)
        self.found: list[tuple[str, cst.FunctionDef, bool]] = []  # (qualname, node, directly in a class)

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.stack.append((node.name.value, True))
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.stack.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        in_class = bool(self.stack) and self.stack[-1][1]
        self.found.append((".".join([*(name for name, _ in self.stack), node.name.value]), node, in_class))
        self.stack.append((node.name.value, False))
        return False

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()


def _annotation_text(tree: cst.Module, annotation: cst.Annotation) -> str:
    """The annotation as written, on one line (one written over several lines is re-spelled by ``ast``)."""
    text = tree.code_for_node(annotation.annotation)
    return ast.unparse(parse_type(text)) if "\n" in text else text


def _functions(text: str) -> list[tuple[str, cst.FunctionDef, bool, cst.Module]]:
    """The functions that can have slots, in source order: (qualname, node, directly in a class, the module
    that prints the node), from their headers alone when they can be cut out, else from the whole module."""
    found = headers(text)
    if found is not None:
        return [(header.qualname, header.function, header.in_class, header.module) for header in found]
    tree = _parsed(text)
    walker = _Functions()
    tree.visit(walker)
    return [(qualname, node, in_class, tree) for qualname, node, in_class in walker.found]


def signatures(text: str, module: str, *, is_package: bool) -> list[Signature]:
    """Every function of the module that could have slots, with its annotations and what stops asking it."""
    functions = _functions(text)
    counts: dict[str, int] = {}
    for qualname, _, _, _ in functions:
        counts[qualname] = counts.get(qualname, 0) + 1
    scopes = module_scopes(text, module, is_package=is_package)
    found = []
    for qualname, node, in_class, tree in functions:
        signature = _signature(tree, qualname, node, in_class)
        if signature.problem is None and counts[qualname] > 1:
            problem = f"defined {counts[qualname]} times in the module"
            signature = Signature(qualname, signature.slots, problem, DropReason.UNCHECKABLE)
        elif signature.problem is None:
            signature = _judgeable(signature, scopes)
        found.append(signature)
    return found


def _signature(tree: cst.Module, qualname: str, node: cst.FunctionDef, in_class: bool) -> Signature:
    if any(_decorator_name(d) == "overload" for d in node.decorators):
        return Signature(qualname, (), "an @overload signature", DropReason.UNCHECKABLE)
    receiver = _receiver(node, in_class)
    annotated = [(f"param:{p.name.value}", p.annotation) for p in _parameters(node) if p is not receiver]
    annotated.append(("return", node.returns))
    slots = []
    for name, annotation in annotated:
        if annotation is None:
            return Signature(qualname, (), "not fully annotated")
        try:
            slots.append((name, _annotation_text(tree, annotation)))
        except UnsafeType as problem:
            return Signature(qualname, (), f"{name}: {problem}", DropReason.UNCHECKABLE)
    return Signature(qualname, tuple(slots))


def _judgeable(signature: Signature, scopes: ModuleScopes) -> Signature:
    """``signature``, or it with the reason the verifier could not judge it or it asks nothing."""
    canon = Canon(scopes.for_function(tuple(signature.qualname.split(".")), set()))
    spelled = []
    for name, text in signature.slots:
        try:
            spelled.append(canon.spell(parse_type(text)))
        except UnsafeType as problem:
            return Signature(
                signature.qualname, signature.slots, f"{name}: {problem}", DropReason.UNCHECKABLE
            )
        if set(split_union(spelled[-1])) & TOP_TYPES:
            top = f"{name} is {text} (a top type: every answer would do)"
            return Signature(signature.qualname, signature.slots, top, DropReason.UNCHECKABLE)
    if all(spelling == "None" for spelling in spelled):
        return Signature(signature.qualname, signature.slots, "nothing but None to ask", DropReason.TRIVIAL)
    if len(signature.slots) > MAX_SLOTS:
        many = f"{len(signature.slots)} slots, more than the {MAX_SLOTS} a task holds"
        return Signature(signature.qualname, signature.slots, many, DropReason.UNCHECKABLE)
    return signature


# -- stripping -------------------------------------------------------------------------------------------


class _Stripper(cst.CSTTransformer):
    """Removes the parameter (but ``self``/``cls``) and return annotations of the ``targets``."""

    def __init__(self, targets: frozenset[str]) -> None:
        super().__init__()
        self.targets = targets
        self.stack: list[tuple[str, bool]] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.stack.append((node.name.value, True))
        return True

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef) -> cst.ClassDef:
        self.stack.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.stack.append((node.name.value, False))
        return False

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        qualname = ".".join(name for name, _ in self.stack)
        self.stack.pop()
        if qualname not in self.targets:
            return updated_node
        return _stripped(qualname, bool(self.stack) and self.stack[-1][1], updated_node)


def _stripped(qualname: str, in_class: bool, node: cst.FunctionDef) -> cst.FunctionDef:
    """The function without its parameter (but ``self``/``cls``) and return annotations (a header edit)."""
    receiver = _receiver(node, in_class)
    params = node.params
    stripped = {id(p): _bare(p) for p in _parameters(node) if p is not receiver}

    def swap(items: Sequence[cst.Param]) -> list[cst.Param]:
        return [stripped.get(id(item), item) for item in items]

    star_arg = params.star_arg
    if isinstance(star_arg, cst.Param):
        star_arg = stripped.get(id(star_arg), star_arg)
    star_kwarg = params.star_kwarg
    if star_kwarg is not None:
        star_kwarg = stripped.get(id(star_kwarg), star_kwarg)
    params = params.with_changes(
        posonly_params=swap(params.posonly_params),
        params=swap(params.params),
        kwonly_params=swap(params.kwonly_params),
        star_arg=star_arg,
        star_kwarg=star_kwarg,
    )
    return node.with_changes(params=params, returns=None)


def _bare(param: cst.Param) -> cst.Param:
    """``param`` without its annotation; ``x: int = 1`` becomes ``x=1``, as unannotated code is written."""
    equal = param.equal
    if isinstance(equal, cst.AssignEqual) and _spaced(equal):
        empty = cst.SimpleWhitespace("")
        equal = cst.AssignEqual(whitespace_before=empty, whitespace_after=empty)
    return param.with_changes(annotation=None, equal=equal)


def _spaced(equal: cst.AssignEqual) -> bool:
    around = (equal.whitespace_before, equal.whitespace_after)
    return all(isinstance(w, cst.SimpleWhitespace) and w.value == " " for w in around)


def strip_annotations(text: str, targets: frozenset[str]) -> str:
    """``text`` with the annotations of the functions ``targets`` (qualified inside the module) removed."""
    stripped = rewrite_headers(text, targets, _stripped)
    return stripped if stripped is not None else _parsed(text).visit(_Stripper(targets)).code


@functools.lru_cache(maxsize=SETTLED_TOGETHER * 2)
def _parsed(text: str) -> cst.Module:
    """A module's syntax tree, parsed once for all its groups (LibCST trees are immutable); the modules
    settled together, and those taking turns after them, are each parsed once while they are in use."""
    return cst.parse_module(text)


def slot_names(module: str, group: Sequence[Signature]) -> dict[str, str]:
    """Slot name -> the annotation as written, for the functions of ``group``."""
    return {f"{module}.{s.qualname}:{name}": text for s in group for name, text in s.slots}


# -- planning --------------------------------------------------------------------------------------------

_DropRecord = tuple[DropReason, str, str]


def _plan(source: Source, where: ModuleFile) -> tuple[_ModulePlan, list[_DropRecord]]:
    """The module's askable functions (read from its text alone), and the drops of those not asked."""
    text = (source.root / where.file).read_text(encoding="utf-8")
    found = signatures(text, where.module, is_package=where.is_package)
    drops: dict[str, _DropRecord] = {}  # one per name: the signatures of an overload share theirs
    for signature in found:
        subject = f"{where.module}.{signature.qualname}"
        if signature.reason is not None and subject not in drops:
            drops[subject] = (signature.reason, subject, signature.problem or "")
    askable = [s for s in found if s.problem is None]
    askable, rejected = _template_checked(text, where, askable)
    scopes = module_scopes(text, where.module, is_package=where.is_package)
    return _ModulePlan(where, text, scopes, askable), [*drops.values(), *rejected]


@dataclass(frozen=True, slots=True)
class _SettleRequest:
    """What a module's settling asks the checker: its baseline and its canaried text (or why it cannot)."""

    check: tuple[Task, list[str]] | None
    canaries: Mapping[int, str]
    stripped: str
    problem: Exception | None = None


def _settle_request(source: Source, kind: TaskKind, plan: _ModulePlan) -> _SettleRequest:
    probe = tuple(plan.askable[:1])
    stripped = strip_annotations(plan.text, frozenset(s.qualname for s in probe))
    try:
        task = _task(source, kind, plan, group=probe, stripped=stripped, baseline=None)
        canary_text, canaries = canaried(plan.text, [s.qualname for s in plan.askable])
    except Exception as problem:
        return _SettleRequest(None, {}, stripped, problem)
    return _SettleRequest((task, [canary_text]), canaries, stripped)


def _settle(
    kind: TaskKind,
    plan: _ModulePlan,
    request: _SettleRequest,
    outcome: Baselined | Exception,
    rng: random.Random,
) -> list[Drop]:
    """Record the module's baseline, drop the functions it shows the checker cannot judge, and put the
    rest in seeded groups of 1-5 (none when the checker does not run on the module)."""
    where, stripped = plan.where, request.stripped
    try:
        if isinstance(outcome, Exception):
            raise outcome
        baseline, (canary_errors,) = outcome
        checked = _checked_functions(canary_errors, request.canaries)
    except Exception as problem:  # the checker does not run on this module: no task can be judged
        return [Drop(kind, DropReason.BASELINE, where.module, _describe(problem))]
    if checked is None:
        detail = "the checker reports nothing at the module's end (a platform assertion, ignore-errors?)"
        return [Drop(kind, DropReason.UNCHECKABLE, where.module, detail)]
    if stripped.count("\n") == plan.text.count("\n"):
        plan.baseline = baseline
    plan.clean = not baseline
    unresolved = unresolved_imports(stripped, baseline, where)
    askable, drops = [], []
    for signature in plan.askable:
        subject = f"{where.module}.{signature.qualname}"
        names = _unresolved_names(plan.scopes, signature, unresolved)
        if signature.qualname not in checked:
            detail = "the checker skips it as unreachable (a platform, version or TYPE_CHECKING branch)"
            drops.append(Drop(kind, DropReason.UNCHECKABLE, subject, detail))
        elif names:
            detail = f"names from imports the checker cannot resolve (so Any): {', '.join(names)}"
            drops.append(Drop(kind, DropReason.UNCHECKABLE, subject, detail))
        else:
            askable.append(signature)
    rng.shuffle(askable)
    while askable:
        size, group = rng.randint(1, MAX_FUNCTIONS), [askable.pop()]
        while askable and len(group) < size and _slots(group) + len(askable[-1].slots) <= MAX_SLOTS:
            group.append(askable.pop())
        plan.groups.append(tuple(group))
    return drops


CANARY = 'dure_canary_{}: int = ""'  # an error wherever the checker looks


def canaried(text: str, functions: Sequence[str]) -> tuple[str, dict[int, str]]:
    """``text`` with a canary statement after each of ``functions`` (qualified inside the module), in the
    same block, and one at the end; and canary line -> function (``""`` for the end of the module).

    The checker reports nothing in code it deems unreachable (``if sys.platform == "win32":``, a module
    that starts with ``assert sys.platform == "win32"``) or told to ignore (``# mypy: ignore-errors``);
    there a wrong answer adds no error, and the verifier's probes at the end pass whatever they assert.
    """
    wanted = set(functions)
    after: dict[int, list[tuple[str, str]]] = {}  # line -> (indentation, function) to insert below it
    lines = text.splitlines()
    for qualname, node in _defs(parsed(text)):
        if qualname in wanted and node.end_lineno is not None:
            indent = lines[node.lineno - 1][: node.col_offset]
            after.setdefault(node.end_lineno, []).append((indent, qualname))
    out: list[str] = []
    canaries: dict[int, str] = {}
    for number, line in enumerate(lines, start=1):
        out.append(line)
        for indent, qualname in after.get(number, []):
            out.append(indent + CANARY.format(len(canaries)))
            canaries[len(out)] = qualname
    out.append(CANARY.format(len(canaries)))
    canaries[len(out)] = ""
    return "\n".join(out) + "\n", canaries


def _defs(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Functions at module level and in classes (the ones with slots), by qualified name in the module."""

    def walk(
        node: ast.AST, path: tuple[str, ...]
    ) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, (*path, child.name))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield ".".join((*path, child.name)), child
            elif isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
                yield from walk(child, path)

    return walk(tree, ())


def _checked_functions(errors: Sequence[Diagnostic], canaries: Mapping[int, str]) -> frozenset[str] | None:
    """The askable functions the checker checks (its errors on the canaried module), or ``None`` when it
    does not reach the module's end."""
    flagged = {d.line for d in errors}
    if max(canaries) not in flagged:
        return None
    return frozenset(canaries[line] for line in flagged if line in canaries)


def unresolved_imports(text: str, baseline: Sequence[str], where: ModuleFile) -> frozenset[str]:
    """Modules imported on the lines where ``baseline`` has errors: the checker takes their names as Any,
    so an answer naming anything else from them would pass ``assert_type`` against a reference from them."""
    lines = {int(key.partition(":")[0]) for key in baseline if key.partition(":")[0].isdigit()}
    package = where.module if where.is_package else where.module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(parsed(text)):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if not any(node.lineno <= line <= (node.end_lineno or node.lineno) for line in lines):
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        else:
            found.add(_absolute(node.module, node.level, package))
    return frozenset(name for name in found if name)


def _absolute(module: str | None, level: int, package: str) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return ""
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{module}" if module and base else (module or base)


def _unresolved_names(scopes: ModuleScopes, signature: Signature, unresolved: frozenset[str]) -> list[str]:
    """The names of the signature's annotations that come from ``unresolved`` modules."""
    if not unresolved:
        return []
    canon = Canon(scopes.for_function(tuple(signature.qualname.split(".")), set()))
    found = set()
    for _, text in signature.slots:
        for name in _DOTTED.findall(canon.spell(parse_type(text))):
            if any(name == module or name.startswith(f"{module}.") for module in unresolved):
                found.add(name)
    return sorted(found)


def _slots(group: Sequence[Signature]) -> int:
    return sum(len(s.slots) for s in group)


def _template_checked(
    text: str, where: ModuleFile, askable: list[Signature]
) -> tuple[list[Signature], list[_DropRecord]]:
    """The functions whose stripped slots the verifier's template finds (all of them, but for surprises)."""
    if not askable or _template_error(text, where, askable) is None:
        return askable, []
    kept, drops = [], []
    for signature in askable:
        error = _template_error(text, where, [signature])
        if error is None:
            kept.append(signature)
        else:
            drops.append((DropReason.UNCHECKABLE, f"{where.module}.{signature.qualname}", error))
    return kept, drops


def _template_error(text: str, where: ModuleFile, group: Sequence[Signature]) -> str | None:
    stripped = strip_annotations(text, frozenset(s.qualname for s in group))
    try:
        build_template(
            stripped, where.module, list(slot_names(where.module, group)), is_package=where.is_package
        )
    except (SlotError, SyntaxError, UnsafeType) as problem:
        return str(problem)
    return None


# -- tasks -----------------------------------------------------------------------------------------------


def _next_candidate(source: Source, kind: TaskKind, plan: _ModulePlan) -> Candidate | Drop:
    """The task of the plan's next group (one whose stripping moves lines gets a baseline of its own)."""
    group = tuple(sorted(plan.groups.popleft(), key=lambda s: s.qualname))
    where = plan.where
    subject = f"{where.module}.{group[0].qualname}"
    try:
        stripped = strip_annotations(plan.text, frozenset(s.qualname for s in group))
        keeps_lines = stripped.count("\n") == plan.text.count("\n")
        baseline = plan.baseline if keeps_lines else None
        if baseline is None:  # its line numbers differ from the module's: a baseline of its own
            try:
                baseline = baseline_of(
                    _task(source, kind, plan, group=group, stripped=stripped, baseline=None)
                )
            except Exception as problem:
                return Drop(kind, DropReason.BASELINE, subject, _describe(problem))
            if keeps_lines:
                plan.baseline = baseline
        task = _task(source, kind, plan, group=group, stripped=stripped, baseline=baseline)
    except Exception as problem:
        return Drop(kind, DropReason.ERROR, subject, _describe(problem))
    return Candidate(task, secrets=tuple(sorted(set(slot_names(where.module, group).values()))))


def _task(
    source: Source,
    kind: TaskKind,
    plan: _ModulePlan,
    *,
    group: tuple[Signature, ...],
    stripped: str,
    baseline: tuple[str, ...] | None,
) -> Task:
    where = plan.where
    answer = slot_names(where.module, group)
    params: dict[str, object] = {
        "module": where.module,
        "path": where.path,
        "source": stripped,
        "root": where.root,
        "engine": ENGINE,
        "flags": list(STRICT),
        "checker_version": checker_version(ENGINE),
    }
    if plan.files is not None:
        params["files"] = plan.files
    if baseline is not None:
        params["baseline"] = list(baseline)
    functions = [f"{where.module}.{s.qualname}" for s in group]
    files = [where.file, *_type_files(source, plan, group)]
    features = difficulty.features(
        hops=2 if len(set(files)) > 1 else 1,
        files=files,
        answer_size=len(answer),
        fan_in=sum(_count(source, "callers", name) for name in functions),
        fan_out=sum(_count(source, "callees", name) for name in functions),
    )
    return make_task(
        kind=kind,
        repo=source.repo,
        prompt=_prompt(where, functions, _lines(stripped, where.module), answer),
        inputs={"symbol": where.module, "module": where.module, "file": where.file, "functions": functions},
        answer=answer,
        answer_schema=_schema(answer),
        verifier=VerifierSpec("types", freeze_object(params)),
        phase=difficulty.phase_of(LAYER_OF_KIND[kind], features),
        workspace=make_patch({where.file: (plan.text, stripped)}),
        difficulty=features,
        provenance=provenance(
            source,
            kind,
            checker=f"{ENGINE} {checker_version(ENGINE)}",
            flags=list(STRICT),
            baseline_errors=len(baseline or ()),
            module=where.module,
            functions=functions,
        ),
    )


def _schema(answer: Mapping[str, str]) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {slot: {"type": "string", "minLength": 1} for slot in answer},
        "required": sorted(answer),
        "additionalProperties": False,
    }


def _prompt(
    where: ModuleFile, functions: list[str], lines: Mapping[str, int], answer: Mapping[str, str]
) -> str:
    listed = "\n".join(
        f"- `{name}` (line {lines[name]})" if name in lines else f"- `{name}`" for name in functions
    )
    slots = "\n".join(f"- `{slot}`" for slot in answer)
    which = "this function" if len(functions) == 1 else f"these {len(functions)} functions"
    return (
        f"In `{where.file}` (module `{where.module}`), the annotations of {which} were removed: every "
        f"parameter annotation except on `self`/`cls`, and the return annotation.\n\n{listed}\n\n"
        "Restore the annotations the authors wrote: read the functions, what they call and what calls them. "
        "A slot names one annotation: `<function>:return`, or `<function>:param:<parameter>` (`*args` and "
        f"`**kwargs` by their names). The slots to fill:\n\n{slots}\n\n{ANSWER_FORMAT}"
    )


def _lines(text: str, module: str) -> dict[str, int]:
    """Qualified name -> line of the ``def``, for functions at module level and in classes."""
    found: dict[str, int] = {}
    for qualname, node in _defs(parsed(text)):
        found.setdefault(f"{module}.{qualname}", node.lineno)
    return found


def _count(source: Source, query: str, qualname: str) -> int:
    """How many certain callers (or callees) the index knows for ``qualname`` (0 when it does not know it)."""
    if qualname not in source.index.definitions:
        return 0
    result = source.index.callers(qualname) if query == "callers" else source.index.callees(qualname)
    return len(result.value)


def _type_files(source: Source, plan: _ModulePlan, group: tuple[Signature, ...]) -> list[str]:
    """Files of the repository's own definitions that the answer's types name."""
    definitions = source.index.definitions
    reexports = {f"{i.module}.{i.name}": i.resolved for i in source.index.imports if i.resolved}
    files = set()
    for signature in group:
        canon = Canon(plan.scopes.for_function(tuple(signature.qualname.split(".")), set()))
        for _, text in signature.slots:
            for name in _DOTTED.findall(canon.spell(parse_type(text))):
                target = reexports.get(name, name)
                if target in definitions:
                    files.add(definitions[target].file)
    return sorted(files)
