"""Recording the calls a program really makes, named the way the static index names them.

A :class:`CallRecorder` installs a ``sys.setprofile`` hook and keeps, for the code under one root directory:

- ``edges``: a repository function calling a repository function (directly, through a protocol such as
  ``for``/``with``/operators/properties, or from inside a builtin such as ``len(obj)`` → ``__len__``), and a
  repository function calling a builtin (``builtins.print``, ``builtins.str.join``);
- ``resumptions``: the first time a generator or coroutine body runs, from the frame that first resumed it (a
  call of a generator function runs no code, so the creating call is invisible to the profiler);
- ``callbacks``: code outside the root (the standard library, ``exec`` strings) calling into the root, named
  by the external caller;
- ``external``: repository code calling C functions of other modules (``math.sqrt``).

Calls into Python code outside the root, and everything that code calls, are not recorded (apart from
``callbacks``). Names follow the index: ``pkg.mod.Class.method``, nested functions without ``<locals>``,
lambdas ``<lambda:LINE>``, comprehensions folded into the enclosing definition, module code named by the
module. Module names come from paths relative to the root (``pkg/__init__.py`` → ``pkg``), unless the
caller names a file's module (the index names ``src/pkg/mod.py`` ``pkg.mod``).
"""

from __future__ import annotations

import dis
import json
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import Any, Self

from dure.errors import AnalysisError

_COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
_LAZY_CODE = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR
_NEWLOCALS = 0x2  # CO_NEWLOCALS: set on functions, clear on module and class bodies
_IGNORED_BUILTINS = frozenset({"builtins.__build_class__"})  # the machinery of ``class`` statements

Edge = tuple[str, str]
Site = tuple[str, int, str]  # caller, the line of the caller that made the call, callee
#: caller, the span of the caller's instruction that made the call (line, column, end line, end column; the
#: columns count UTF-8 bytes, as ``ast`` does), callee
Position = tuple[str, int, int, int, int, str]
Span = tuple[int, int, int, int]  # line, column, end line, end column
_NO_SPAN: Span = (0, 0, 0, 0)


class TracingError(AnalysisError):
    """A traced program could not be run (it timed out or the recorder itself failed)."""


@dataclass(frozen=True, slots=True)
class Trace:
    """The calls observed while running code rooted at one directory."""

    edges: frozenset[Edge] = frozenset()
    resumptions: frozenset[Edge] = frozenset()
    callbacks: frozenset[Edge] = frozenset()
    external: frozenset[Edge] = frozenset()
    through: frozenset[tuple[str, str, str]] = frozenset()  # (caller, callee, builtin) inside a builtin call
    sites: frozenset[Site] = frozenset()  # (caller, line, callee) of each call (with ``lines=True`` only)
    positions: frozenset[Position] = frozenset()  # each call with its instruction's span (``lines=True``)
    error: str | None = None  # the last line of an uncaught exception's traceback
    exit_code: int = 0
    stdout: str = ""
    stderr: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "edges": sorted(self.edges),
            "resumptions": sorted(self.resumptions),
            "callbacks": sorted(self.callbacks),
            "external": sorted(self.external),
            "through": sorted(self.through),
            "sites": sorted(self.sites),
            "positions": sorted(self.positions),
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], **extra: Any) -> Trace:
        def pairs(key: str) -> frozenset[Edge]:
            return frozenset((str(a), str(b)) for a, b in data.get(key, ()))

        through = frozenset((str(a), str(b), str(c)) for a, b, c in data.get("through", ()))
        sites = frozenset((str(a), int(line), str(b)) for a, line, b in data.get("sites", ()))
        positions = frozenset(
            (str(a), int(line), int(column), int(end), int(end_column), str(b))
            for a, line, column, end, end_column, b in data.get("positions", ())
        )
        return cls(
            edges=pairs("edges"),
            resumptions=pairs("resumptions"),
            callbacks=pairs("callbacks"),
            external=pairs("external"),
            through=through,
            sites=sites,
            positions=positions,
            error=data.get("error"),
            **extra,
        )


def module_name(relpath: str) -> str:
    """Module name of a path under the root: ``pkg/__init__.py`` → ``pkg``, ``pkg/m.py`` → ``pkg.m``."""
    parts = relpath.removesuffix(".py").split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True, slots=True)
class _CodeInfo:
    name: str  # dure's name for the code's definition (comprehensions: the enclosing one)
    is_definition: bool  # a function or lambda body (not module, class body or comprehension)
    is_lazy: bool  # a generator, coroutine or async generator
    first_resume: int  # offset of the first RESUME instruction, f_lasti on the first entry of a lazy frame


def _code_tree(code: CodeType, name: str) -> Iterator[tuple[CodeType, str]]:
    """Every code object nested in ``code`` with its dure name."""
    yield code, name
    for const in code.co_consts:
        if not isinstance(const, CodeType):
            continue
        if const.co_name in _COMPREHENSIONS:
            child = name
        elif const.co_name == "<lambda>":
            child = f"{name}.<lambda:{const.co_firstlineno}>"
        else:
            child = f"{name}.{const.co_name}"
        yield from _code_tree(const, child)


def _fallback_name(code: CodeType, module: str) -> str:
    parts = [p for p in code.co_qualname.split(".") if p != "<locals>" and p not in _COMPREHENSIONS]
    parts = [f"<lambda:{code.co_firstlineno}>" if p == "<lambda>" else p for p in parts]
    return ".".join([module, *parts]) if code.co_name != "<module>" else module


def _first_resume(code: CodeType) -> int:
    resume = dis.opmap["RESUME"]
    raw = code.co_code
    return next((i for i in range(0, len(raw), 2) if raw[i] == resume), 0)


class CallRecorder:
    """Records calls made by code under ``root``; use as a context manager or with start()/stop().

    ``modules`` maps a file (POSIX path relative to ``root``) to its module name where the path alone would
    name it otherwise, so that traced names equal the index's (``src/pkg/mod.py`` → ``pkg.mod``). With
    ``c_calls=False`` calls of C functions are not recorded (no builtin edges, ``external`` or ``through``):
    they are most of a test suite's events, and handling them triples the cost of recording the calls
    between Python functions. With ``lines=True`` each call is recorded with the line of the caller that
    made it too (``sites``), which tells a call site the static index names by its line, and with the span
    of the instruction that made it (``positions``), which tells apart the calls of one line (a call's span
    is its expression's, from the method name's line when that is not the receiver's).
    """

    def __init__(
        self,
        root: Path,
        modules: Mapping[str, str] | None = None,
        *,
        c_calls: bool = True,
        lines: bool = False,
    ) -> None:
        self.root = root.resolve()
        self._c_calls = c_calls
        self._lines = lines
        self._prefix = str(self.root) + os.sep
        self._modules = dict(modules or {})
        # By the code object's identity, kept alive here: equal code objects of two files (the same function
        # at the same line of two test modules) compare equal, whatever their file.
        self._codes: dict[int, tuple[CodeType, _CodeInfo | None]] = {}
        self._trees: dict[str, dict[tuple[int, str], str]] = {}
        self._c_stack: list[tuple[FrameType, Any]] = []  # (calling frame, C function), named when needed
        self._edges: set[Edge] = set()
        self._resumptions: set[Edge] = set()
        self._callbacks: set[Edge] = set()
        self._external: set[Edge] = set()
        self._through: set[tuple[str, str, str]] = set()
        self._sites: set[Site] = set()
        # calls by the span of the instruction that made them, the sites' lines and the positions both
        self._made_at: set[tuple[str, Span, str]] = set()
        self._spans: dict[int, list[Span]] = {}  # by code object (kept alive by _codes), by code unit
        self._previous: Any = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self._previous = sys.getprofile()
        sys.setprofile(self._profile if self._c_calls else self._profile_calls)

    def stop(self) -> None:
        sys.setprofile(self._previous)

    def trace(self, *, error: str | None = None) -> Trace:
        return Trace(
            edges=frozenset(self._edges),
            resumptions=frozenset(self._resumptions),
            callbacks=frozenset(self._callbacks),
            external=frozenset(self._external),
            through=frozenset(self._through),
            sites=frozenset(
                self._sites | {(caller, span[0], callee) for caller, span, callee in self._made_at}
            ),
            positions=frozenset(
                (caller, *span, callee) for caller, span, callee in self._made_at if span[0] > 0
            ),
            error=error,
        )

    # -- naming ---------------------------------------------------------------------------------------------

    def _info(self, code: CodeType) -> _CodeInfo | None:
        """What the recorder knows of a code object; None for code outside the root."""
        known = self._codes.get(id(code))
        if known is not None and known[0] is code:
            return known[1]
        info = None
        filename = code.co_filename
        if filename.startswith(self._prefix) and filename.endswith(".py"):
            relpath = filename[len(self._prefix) :].replace(os.sep, "/")
            module = self._modules.get(relpath) or module_name(relpath)
            tree = self._tree(filename, module)
            name = tree.get((code.co_firstlineno, code.co_qualname)) or _fallback_name(code, module)
            is_function = bool(code.co_flags & _NEWLOCALS) and code.co_name not in _COMPREHENSIONS
            is_lazy = bool(code.co_flags & _LAZY_CODE)
            info = _CodeInfo(name, is_function, is_lazy, _first_resume(code) if is_lazy else 0)
        self._codes[id(code)] = (code, info)
        return info

    def _tree(self, filename: str, module: str) -> dict[tuple[int, str], str]:
        tree = self._trees.get(filename)
        if tree is None:
            try:
                source = Path(filename).read_bytes()
                top = compile(source, filename, "exec", dont_inherit=True)
            except (OSError, SyntaxError, ValueError):
                tree = {}
            else:
                tree = {(c.co_firstlineno, c.co_qualname): n for c, n in _code_tree(top, module)}
            self._trees[filename] = tree
        return tree

    @staticmethod
    def _external_name(frame: FrameType) -> str:
        code = frame.f_code
        if code.co_filename.startswith("<"):
            return code.co_filename  # ``<string>``: code compiled at run time (exec, eval)
        module = frame.f_globals.get("__name__")
        return _fallback_name(code, module if isinstance(module, str) else "?")

    @staticmethod
    def _c_name(func: Any) -> str:
        owner = getattr(func, "__self__", None)
        qualname = str(getattr(func, "__qualname__", getattr(func, "__name__", "?")))
        if owner is None or isinstance(owner, ModuleType):
            return f"{getattr(func, '__module__', None) or 'builtins'}.{qualname}"
        cls_name = qualname.partition(".")[0]
        mro = owner.__mro__ if isinstance(owner, type) else type(owner).__mro__
        defining = next((c for c in mro if c.__name__ == cls_name), type(owner))
        return f"{defining.__module__}.{qualname}"

    # -- the hook -------------------------------------------------------------------------------------------

    def _profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self._on_call(frame)
        elif event == "c_call":
            self._on_c_call(frame, arg)
        elif event in ("c_return", "c_exception") and self._c_stack:
            self._c_stack.pop()

    def _profile_calls(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self._on_call(frame)

    def _on_call(self, frame: FrameType) -> None:
        callee = self._info(frame.f_code)
        if callee is None or not callee.is_definition:
            return
        back = frame.f_back
        if back is None:
            return
        caller = self._info(back.f_code)
        if caller is None:
            self._callbacks.add((self._external_name(back), callee.name))
            return
        edge = (caller.name, callee.name)
        if callee.is_lazy:
            if frame.f_lasti == callee.first_resume:
                self._resumptions.add(edge)
            return
        self._edges.add(edge)
        if self._lines:
            code = back.f_code
            spans = self._spans.get(id(code)) or self._spans_of(code)
            unit = back.f_lasti >> 1  # f_lasti counts bytes, spans 2-byte code units
            span = spans[unit] if 0 <= unit < len(spans) else _NO_SPAN  # a hook must never raise
            if span[0] > 0:
                self._made_at.add((caller.name, span, callee.name))
            else:
                self._sites.add((caller.name, back.f_lineno, callee.name))
        if self._c_stack and self._c_stack[-1][0] is back:
            self._through.add((*edge, self._c_name(self._c_stack[-1][1])))

    def _spans_of(self, code: CodeType) -> list[Span]:
        """The span of each code unit of ``code`` (line 0 where it has none)."""
        spans = self._spans[id(code)] = [
            (line, column, end, end_column)
            if line is not None and end is not None and column is not None and end_column is not None
            else _NO_SPAN
            for line, end, column, end_column in code.co_positions()
        ]
        return spans

    def _on_c_call(self, frame: FrameType, func: Any) -> None:
        self._c_stack.append((frame, func))
        caller = self._info(frame.f_code)
        if caller is None:
            return  # most C calls of a test run come from outside the root: do not name them
        name = self._c_name(func)
        if name in _IGNORED_BUILTINS:
            return
        if self._lines:
            self._sites.add((caller.name, frame.f_lineno, name))
        if name.startswith("builtins."):
            self._edges.add((caller.name, name))
        else:
            self._external.add((caller.name, name))


@dataclass(frozen=True, slots=True)
class _Run:
    root: Path
    module: str
    output: Path
    argv: list[str] = field(default_factory=list)


def _run_here(run: _Run) -> int:
    """Run ``run.module`` as ``__main__`` under a recorder in this process and write the trace as JSON."""
    import runpy  # noqa: PLC0415 - only the child process needs it

    sys.path.insert(0, str(run.root))
    sys.argv = [run.module, *run.argv]
    recorder = CallRecorder(run.root)
    error = None
    code = 0
    with recorder:
        try:
            runpy.run_module(run.module, run_name="__main__", alter_sys=True)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException as exc:  # the traced program's failure is data
            error = traceback.format_exception_only(exc)[-1].strip()
            code = 1
    run.output.write_text(json.dumps(recorder.trace(error=error).to_json()), encoding="utf-8")
    return code


def trace_module(root: Path, module: str, *, timeout: float = 60.0, argv: tuple[str, ...] = ()) -> Trace:
    """Run ``module`` (found under ``root``) as ``__main__`` in a fresh interpreter and return its calls."""
    package_dir = Path(__file__).resolve().parents[2]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(package_dir), env.get("PYTHONPATH")]))
    env.pop("PYTHONSTARTUP", None)
    with tempfile.TemporaryDirectory(prefix="dure-trace-") as scratch:
        output = Path(scratch) / "trace.json"
        command = [sys.executable, "-m", "dure.analyzers.tracing", str(root.resolve()), module, str(output)]
        try:
            done = subprocess.run(
                [*command, *argv],
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
                cwd=root,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise TracingError(f"{root}: {module}: still running after {timeout:g}s") from exc
        if not output.exists():
            raise TracingError(f"{root}: {module}: the recorder wrote no trace: {done.stderr.strip()[-400:]}")
        data = json.loads(output.read_text(encoding="utf-8"))
    return Trace.from_json(data, exit_code=done.returncode, stdout=done.stdout, stderr=done.stderr)


def main(argv: list[str]) -> int:
    """``python -m dure.analyzers.tracing ROOT MODULE OUTPUT [ARGS...]``, used by :func:`trace_module`."""
    if len(argv) < 3:
        print("usage: python -m dure.analyzers.tracing ROOT MODULE OUTPUT [ARGS...]", file=sys.stderr)
        return 2
    return _run_here(_Run(Path(argv[0]).resolve(), argv[1], Path(argv[2]), argv[3:]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
