"""Modules whose global names code may rebind at run time, through the namespace itself rather than by name.

``globals()[k] = v``, ``globals().update(...)``, ``exec(code)`` and their like may bind or replace any name of
the module they run in: what a module-level name holds there is then never exactly known. Found from the
summaries alone (before anything is evaluated), so an alias counts by the way it is spelt: a name bound to
``globals()`` anywhere in the module, ``exec`` imported from ``builtins`` or bound to another name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from dure.analyzers.summary import CallRecord, ModuleSummary, Ref

GLOBALS: Ref = ("c", ("n", "globals"), ())
#: What names a module's own namespace anywhere (``vars()`` with no argument is ``locals()``: a copy in a
#: function, the namespace itself at module level).
OWN_NAMESPACES = frozenset({GLOBALS, ("c", ("n", "vars"), ())})
#: What names it at module level only.
MODULE_LEVEL_NAMESPACES = frozenset({*OWN_NAMESPACES, ("c", ("n", "locals"), ())})
#: The attributes that hold some module's namespace: a function's globals, a frame's.
NAMESPACE_ATTRIBUTES = frozenset({"__globals__", "f_globals"})
#: Dict methods that change the dict they are called on.
DICT_WRITERS = frozenset(
    {"update", "__setitem__", "__delitem__", "setdefault", "pop", "popitem", "clear", "__ior__"}
)
#: Builtins that only read the dict they are given (any other callable may write the namespace handed to it).
NAMESPACE_READERS = frozenset(
    {"dict", "list", "tuple", "set", "frozenset", "sorted", "len", "iter", "print", "repr", "str", "id"}
    | {"type", "isinstance", "any", "all", "enumerate", "zip", "map", "filter", "hash", "bool"}
)
CODE_RUNNERS = frozenset({"exec", "eval"})
#: The builtins that give a namespace (``globals()``, and ``vars()``/``locals()`` at module level).
NAMESPACE_BUILTINS = frozenset({"globals", "vars", "locals"})


def namespace_writers(summaries: Mapping[str, ModuleSummary]) -> Iterator[str]:
    """The modules that write their own namespace at run time (``globals()[k] = v``, ``globals().update``,
    ``vars()[k] = v`` at module level, a namespace handed to a callable, ``exec`` of code given no
    namespace but the module's own)."""
    for module, summary in summaries.items():
        if _writes_own_namespace(summary):
            yield module


def own_namespace(ref: Ref, scope: int) -> bool:
    """Whether ``ref``, in scope ``scope`` of a module, is the module namespace ``globals()`` gives."""
    return ref == GLOBALS or (scope == 0 and ref in MODULE_LEVEL_NAMESPACES)


def _writes_own_namespace(summary: ModuleSummary) -> bool:
    calls = summary.calls
    asked = any(call.func[0] == "n" and call.func[1] in NAMESPACE_BUILTINS for call in calls)
    aliases = _namespace_aliases(summary) if asked else frozenset()
    runners = builtin_aliases(summary, CODE_RUNNERS)

    def namespace(ref: Ref, scope: int) -> bool:
        return own_namespace(ref, scope) or bool(ref[0] == "n" and ref[1] in aliases)

    def written(ref: Ref, scope: int) -> bool:  # ``f.__globals__`` is most often the module's own
        return namespace(ref, scope) or bool(ref[0] == "a" and ref[2] in NAMESPACE_ATTRIBUTES)

    if any(written(add.container, add.scope) for add in summary.container_adds):
        return True
    for call in calls:
        if call.kind != "call":
            continue
        func = call.func
        if func[0] == "a" and func[2] in DICT_WRITERS and written(func[1], call.scope):
            return True
        runs = (func[0] == "n" and func[1] in runners) or (func[0] == "a" and func[2] in CODE_RUNNERS)
        if runs and _runs_code(call, runners, aliases):
            return True
        if asked and not _reads_only(func):
            handed = [*call.args, *[ref for _, ref in call.keywords]] if call.keywords else call.args
            if any(namespace(ref, call.scope) for ref in handed):
                return True
    return False


def _namespace_aliases(summary: ModuleSummary) -> frozenset[str]:
    """The names bound to the module's namespace (``ns = globals()``), in any scope."""
    found: set[str] = set()
    for scope in summary.scopes:
        for name, bindings in scope.bindings.items():
            for binding in bindings:
                if binding.kind == "val" and own_namespace(binding.a, scope.id):
                    found.add(name)
    return frozenset(found)


def builtin_aliases(summary: ModuleSummary, builtins: frozenset[str]) -> frozenset[str]:
    """The names that stand for one of the ``builtins`` in a module: theirs, and the names it binds to them
    in any scope (``run = exec``, ``from builtins import setattr as put``)."""
    names = set(builtins)
    read = any(use.ref[0] == "n" and use.ref[1] in builtins for use in summary.uses)
    if not read and not any(record.target.startswith("builtins.") for record in summary.imports):
        return builtins  # no binding can alias them: none reads them as a value, none imports them
    for scope in summary.scopes:
        for name, bindings in scope.bindings.items():
            for binding in bindings:
                if binding.kind == "val":
                    if binding.a[0] == "n" and binding.a[1] in builtins:
                        names.add(name)
                elif binding.kind == "from" and binding.a == "builtins" and binding.b in builtins:
                    names.add(name)
    return frozenset(names)


def _runs_code(call: CallRecord, runners: frozenset[str], aliases: frozenset[str]) -> bool:
    """``exec(code)`` (``exec(code, globals())``), which may bind any name of the module it runs in (the code
    may declare it ``global``); ``eval`` may too at module level, with ``:=``. Under another name as well:
    ``builtins.exec``, ``run = exec``, ``from builtins import exec as run``."""
    func = call.func
    if func[0] == "n" and func[1] in runners:
        name = func[1]
    elif func[0] == "a" and func[2] in CODE_RUNNERS and func[1][0] == "n" and func[1][1] == "builtins":
        name = func[2]
    else:
        return False
    args = call.args
    given = args[1] if len(args) > 1 else dict(call.keywords).get("globals")
    if given is not None and given not in OWN_NAMESPACES and not (given[0] == "n" and given[1] in aliases):
        return False
    if name == "eval":
        return call.scope == 0 and not (args and args[0][0] == "s" and ":=" not in args[0][1])
    return True


def _reads_only(func: Ref) -> bool:
    """Whether ``func`` is a builtin that only reads the namespace it is given."""
    return bool(func[0] == "n" and func[1] in NAMESPACE_READERS)
