"""Dynamic features as uncertainty records attached to what they could affect."""

from __future__ import annotations

from collections.abc import Iterator

from dure.analyzers.callgraph import ResolvedSite
from dure.analyzers.evaluator import Evaluator
from dure.analyzers.model import Definition, Uncertainty, UncertaintyKind
from dure.analyzers.program import Program
from dure.analyzers.refs import kept_arguments, ref_text
from dure.analyzers.summary import UNKNOWN, CallRecord, Ref
from dure.analyzers.values import Vals

GETATTR_LIKE = frozenset(
    {
        "builtins.getattr",
        "builtins.hasattr",
        "builtins.delattr",
        "operator.attrgetter",
        "operator.methodcaller",
    }
)
EVAL_LIKE = frozenset({"builtins.eval", "builtins.exec", "builtins.compile"})
IMPORT_LIKE = frozenset({"builtins.__import__", "importlib.import_module", "importlib.__import__"})
NAMESPACE_LIKE = frozenset({"builtins.globals", "builtins.locals", "builtins.vars"})
#: Every callee that :func:`dynamic_uncertainties` reports on: other sites are skipped without a generator.
DYNAMIC_CALLEES = GETATTR_LIKE | EVAL_LIKE | IMPORT_LIKE | NAMESPACE_LIKE | {"builtins.setattr"}


def affected_attributes(objects: Vals, name: Ref | None) -> tuple[str, ...]:
    """Selectors for the attributes of ``objects`` that a computed ``name`` could reach."""
    prefix = name[1] if name is not None and name[0] == "sp" else ""
    selectors: list[str] = []
    for value in sorted(objects.values, key=repr):
        if value[0] in ("I", "C"):
            selectors.append(f"prefix:{value[1]}:{prefix}" if prefix else f"member:{value[1]}")
            if not value[2]:
                selectors.append(f"subclasses:{value[1]}")
        elif value[0] == "M":
            selectors.append(f"prefix:{value[1]}:{prefix}" if prefix else f"member:{value[1]}")
    if not objects.complete:
        selectors.append(f"attr:{prefix}")
    return tuple(selectors)


def dynamic_uncertainties(site: ResolvedSite, caller: str, evaluator: Evaluator) -> Iterator[Uncertainty]:
    """Uncertainty records for one resolved call site of getattr/setattr/eval/__import__/globals()."""
    record = site.record
    callees = {t.callee for t in site.targets}
    args = record.args
    where = (caller, site.module)
    file = evaluator.program.summaries[site.module].relpath
    if callees & GETATTR_LIKE or "builtins.setattr" in callees:
        name = args[1] if len(args) > 1 else None
        computed = name is None or name[0] != "s"  # asked first: most names are constant, and cheap to tell
        if computed and not _only_reads(site, callees, evaluator.program):
            kind = UncertaintyKind.SETATTR if "builtins.setattr" in callees else UncertaintyKind.GETATTR
            objects = evaluator.evaluate(args[0], site.key) if args else Vals(frozenset(), False, False)
            yield Uncertainty(
                kind,
                where[0],
                file,
                record.line,
                f"{record.text} with a computed name",
                affected_attributes(objects, name),
            )
    if callees & EVAL_LIKE:
        # Code run by eval/exec sees the namespace it is given: its module's globals and what they import.
        scoped = (f"member:{site.module}", f"imported:{site.module}")
        yield Uncertainty(
            UncertaintyKind.EVAL, caller, file, record.line, f"{record.text}() runs code", scoped
        )
    if callees & IMPORT_LIKE and (not args or args[0][0] != "s"):
        yield Uncertainty(
            UncertaintyKind.DYNAMIC_IMPORT,
            caller,
            file,
            record.line,
            f"{record.text}() imports a computed module",
            (f"modules:{_import_prefix(_spelled(args, site, evaluator))}",),
        )
    if callees & NAMESPACE_LIKE:
        if "builtins.vars" in callees and args:  # vars(obj): the object's attributes, not the module's
            exposed = affected_attributes(evaluator.evaluate(args[0], site.key), None)
        else:
            exposed = (f"member:{site.module}",)
        detail = f"{record.text}() exposes a namespace"
        yield Uncertainty(UncertaintyKind.NAMESPACE, caller, file, record.line, detail, exposed)


#: What writes to a dict: through an object's ``__dict__``, each may set any attribute.
DICT_WRITERS = frozenset({"update", "setdefault", "pop", "popitem", "clear"})


def namespace_writes(program: Program, evaluator: Evaluator) -> Iterator[Uncertainty]:
    """``obj.__dict__[name] = value`` and ``obj.__dict__.update(...)`` set attributes of ``obj`` by computed
    names, as ``setattr`` does."""
    for module, summary in sorted(program.summaries.items()):
        for record in summary.calls:
            owner = dict_owner(record)
            if owner is None:
                continue
            objects = evaluator.evaluate(owner, (module, record.scope))
            yield Uncertainty(
                UncertaintyKind.SETATTR,
                summary.scopes[record.scope].owner,
                summary.relpath,
                record.line,
                f"{record.text} writes attributes through __dict__",
                affected_attributes(objects, None),
            )


def module_replacements(program: Program, evaluator: Evaluator) -> Iterator[tuple[str | None, Uncertainty]]:
    """``sys.modules[name] = obj``: importing ``name`` then gives ``obj``, whose attributes the index does not
    know. The module named by a constant (or ``__name__``: the module itself) is affected, any module when the
    name is computed (then None comes with the record)."""
    for module, summary in sorted(program.summaries.items()):
        for record in summary.calls:
            func = record.func
            if record.kind != "op:__setitem__" or func[0] != "a" or func[2] != "modules":
                continue
            if ("X", "sys.modules") not in evaluator.evaluate(func, (module, record.scope)).values:
                continue
            key = record.args[0] if record.args else UNKNOWN
            replaced = _module_named(key, module)
            affected = ("*",) if replaced is None else (f"member:{replaced}", f"modules:{replaced}")
            yield (
                replaced,
                Uncertainty(
                    UncertaintyKind.MONKEYPATCH,
                    summary.scopes[record.scope].owner,
                    summary.relpath,
                    record.line,
                    f"{ref_text(func)}[{ref_text(key)}] = ... replaces a module",
                    affected,
                ),
            )


def _module_named(key: Ref, module: str) -> str | None:
    """The module name a ``sys.modules`` key spells in ``module``: a string, ``__name__``, or ``__name__``
    plus a string (``__name__ + ".compat"``); None when computed otherwise."""
    if key[0] == "s":
        return str(key[1])
    if key[0] == "n" and key[1] == "__name__":
        return module
    if key[0] == "op" and key[2] == "__add__" and key[3][0] == "s":
        left = key[1]
        if left[0] == "n" and left[1] == "__name__":
            return f"{module}{key[3][1]}"
    return None


def dict_owner(record: CallRecord) -> Ref | None:
    """The object whose ``__dict__`` the call site writes, if it writes one."""
    func = record.func
    if record.kind in ("op:__setitem__", "op:__delitem__"):
        written = func
    elif record.kind == "call" and func[0] == "a" and func[2] in DICT_WRITERS:
        written = func[1]
    else:
        return None
    owner: Ref | None = None
    if written[0] == "a" and written[2] == "__dict__":
        owner = written[1]
    elif written[0] == "c" and written[1] == ("n", "vars") and len(written[2]) == 1:  # ``vars(obj)``
        owner = written[2][0]
    return owner


def _only_reads(site: ResolvedSite, callees: set[str], program: Program) -> bool:
    """``hasattr``, or a ``getattr`` whose result nothing calls: no code of the repository runs."""
    return "builtins.hasattr" in callees or (
        "builtins.getattr" in callees and not _result_may_be_called(program, site)
    )


def _result_may_be_called(program: Program, site: ResolvedSite) -> bool:
    """Whether what ``getattr(obj, computed)`` returns is called, or leaves the scope (and may be).

    A result only compared, tested or read from (``getattr(node, field) is None``) calls nothing.
    """
    record = site.record
    summary = program.summaries[site.module]
    result: Ref = ("c", record.func, record.args[: kept_arguments(record.func)])
    scope = summary.scopes[record.scope]
    holders = {name for name, bindings in scope.bindings.items() if any(b.a == result for b in bindings)}
    for call in summary.calls:
        same_scope = call.scope == record.scope and call.kind == "call"
        if same_scope and (call.func == result or (call.func[0] == "n" and call.func[1] in holders)):
            return True
    for use in summary.uses:
        if use.scope == record.scope and (use.ref == result or (use.ref[0] == "n" and use.ref[1] in holders)):
            return True
    return any(ref == result for ref in scope.returns) or any(
        r[0] == "n" and r[1] in holders for r in scope.returns
    )


def _spelled(args: tuple[Ref, ...], site: ResolvedSite, evaluator: Evaluator) -> tuple[Ref, ...]:
    """The arguments, with a name bound once to a string literal replaced by that literal."""
    if not args or args[0][0] != "n":
        return args
    found = evaluator.program.lookup(site.key, args[0][1]) or []
    strings = [b.a for b, _ in found if b.kind == "val" and b.a[0] in ("s", "sp")]
    return (strings[0], *args[1:]) if len(strings) == 1 and len(found) == 1 else args


def _import_prefix(args: tuple[Ref, ...]) -> str:
    """What every module a computed import can load starts with (``""``: any module).

    Only a name built from a known prefix narrows it: ``import_module(f".data_{x}", "pkg")`` loads a module
    starting with ``pkg.data_``; a fully computed name can be any module, whatever the package argument.
    """
    if not args or args[0][0] != "sp":
        return ""
    prefix = str(args[0][1])
    if not prefix.startswith("."):
        return prefix
    package = args[1][1] if len(args) > 1 and args[1][0] == "s" else None
    return f"{package}{prefix}" if package and not prefix.startswith("..") else ""


def string_uncertainties(program: Program, definitions: dict[str, Definition]) -> Iterator[Uncertainty]:
    """A string literal spelling a definition's name may reach it through getattr, a registry or a mock."""
    by_name: dict[str, list[str]] = {}
    for qualname, definition in definitions.items():
        by_name.setdefault(definition.name, []).append(qualname)
    for module, summary in sorted(program.summaries.items()):
        for text, line in sorted(summary.strings.items()):
            last = text.rpartition(".")[2]
            if last in by_name and (
                text == last or text in definitions or _suffix_of_any(text, by_name[last])
            ):
                yield Uncertainty(
                    UncertaintyKind.STRING_NAME,
                    module,
                    summary.relpath,
                    line,
                    f"string {text!r} spells a definition's name",
                    (f"name:{last}",),
                )


def _suffix_of_any(text: str, qualnames: list[str]) -> bool:
    return any(q.endswith("." + text) or q == text for q in qualnames)
