"""The call recorder: naming, what it records, what it leaves out, and the subprocess runner."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from dure.analyzers.tracing import CallRecorder, Trace, TracingError, module_name, trace_module


def write(root: Path, files: dict[str, str]) -> Path:
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def traced(tmp_path: Path, main: str, **files: str) -> Trace:
    write(
        tmp_path, {"main.py": main, **{f"{name.replace('__', '/')}.py": text for name, text in files.items()}}
    )
    trace = trace_module(tmp_path, "main", timeout=30)
    assert trace.error is None, trace.stderr
    return trace


@pytest.mark.parametrize(
    ("relpath", "module"),
    [
        ("main.py", "main"),
        ("pkg/__init__.py", "pkg"),
        ("pkg/sub/m.py", "pkg.sub.m"),
        ("__init__.py", "__init__"),
    ],
)
def test_module_names(relpath: str, module: str) -> None:
    assert module_name(relpath) == module


def test_names_follow_the_index(tmp_path: Path) -> None:
    trace = traced(
        tmp_path,
        """
        class C:
            def m(self):
                def inner():
                    return [len(x) for x in ("a",)]
                return (lambda: inner())()

        C().m()
        """,
    )
    assert trace.edges == {
        ("main", "main.C.m"),
        ("main.C.m", "main.C.m.<lambda:5>"),
        ("main.C.m.<lambda:5>", "main.C.m.inner"),
        ("main.C.m.inner", "builtins.len"),
    }


def test_nested_lambdas_and_module_names(tmp_path: Path) -> None:
    trace = traced(
        tmp_path,
        """
        from pkg.sub import run
        run()
        """,
        pkg____init__="",
        pkg__sub="""
        def run():
            return (lambda: (lambda: 1)())()
        """,
    )
    assert trace.edges == {
        ("main", "pkg.sub.run"),
        ("pkg.sub.run", "pkg.sub.run.<lambda:2>"),
        ("pkg.sub.run.<lambda:2>", "pkg.sub.run.<lambda:2>.<lambda:2>"),
    }


def test_builtin_methods_and_class_bodies(tmp_path: Path) -> None:
    trace = traced(
        tmp_path,
        """
        class K:
            items = ",".join(["a"])

        print(dict.fromkeys("ab"))
        """,
    )
    assert trace.edges == {
        ("main.K", "builtins.str.join"),
        ("main", "builtins.dict.fromkeys"),
        ("main", "builtins.print"),
    }
    assert trace.stdout == "{'a': None, 'b': None}\n"


def test_calls_made_inside_builtins_are_marked(tmp_path: Path) -> None:
    trace = traced(
        tmp_path,
        """
        def key(v):
            return -v

        sorted([1, 2], key=key)
        """,
    )
    assert ("main", "main.key") in trace.edges
    assert trace.through == {("main", "main.key", "builtins.sorted")}


def test_generators_count_once_from_their_first_consumer(tmp_path: Path) -> None:
    trace = traced(
        tmp_path,
        """
        def gen():
            yield 1
            yield 2

        def consume(g):
            return list(g)

        consume(gen())
        """,
    )
    assert ("main", "main.consume") in trace.edges
    assert trace.resumptions == {("main.consume", "main.gen")}
    assert not any(callee == "main.gen" for _, callee in trace.edges)


def test_external_code_is_left_out_and_callbacks_are_kept_apart(tmp_path: Path) -> None:
    trace = traced(
        tmp_path,
        """
        import json
        import math

        def hook(pairs):
            return dict(pairs)

        json.loads('{"a": 1}', object_pairs_hook=hook)
        math.sqrt(4.0)
        exec("hook([])")
        """,
    )
    assert trace.edges == {("main", "builtins.exec")}
    assert ("<string>", "main.hook") in trace.callbacks
    assert any(callee == "main.hook" and caller.startswith("json.") for caller, callee in trace.callbacks)
    assert trace.external == {("main", "math.sqrt")}


def test_uncaught_exception_and_exit_code(tmp_path: Path) -> None:
    write(tmp_path, {"main.py": "def f():\n    raise KeyError('k')\n\nf()\n"})
    trace = trace_module(tmp_path, "main")
    assert trace.error == "KeyError: 'k'"
    assert trace.exit_code == 1
    assert ("main", "main.f") in trace.edges


def test_timeout_raises(tmp_path: Path) -> None:
    write(tmp_path, {"main.py": "while True:\n    pass\n"})
    with pytest.raises(TracingError, match="still running"):
        trace_module(tmp_path, "main", timeout=1)


def test_recorder_in_process(tmp_path: Path) -> None:
    write(tmp_path, {"lib.py": "def f():\n    return g()\n\ndef g():\n    return abs(-1)\n"})
    namespace: dict[str, object] = {}
    source = (tmp_path / "lib.py").read_text(encoding="utf-8")
    exec(compile(source, str(tmp_path / "lib.py"), "exec"), namespace)
    with CallRecorder(tmp_path) as recorder:
        namespace["f"]()  # type: ignore[operator]
    trace = recorder.trace()
    assert trace.edges == {("lib.f", "lib.g"), ("lib.g", "builtins.abs")}
    assert trace.callbacks == {(f"{__name__}.test_recorder_in_process", "lib.f")}


def test_recorder_with_lines_names_the_calling_line(tmp_path: Path) -> None:
    source = (
        "def f(flag):\n    g()\n    if flag:\n        return g()\n    return abs(-1)\n\n\n"
        "def g():\n    pass\n"
    )
    write(tmp_path, {"lib.py": source})
    namespace: dict[str, object] = {}
    exec(compile(source, str(tmp_path / "lib.py"), "exec"), namespace)
    with CallRecorder(tmp_path, lines=True) as recorder:
        namespace["f"](False)  # type: ignore[operator]
    assert recorder.trace().sites == {("lib.f", 2, "lib.g"), ("lib.f", 5, "builtins.abs")}
    with CallRecorder(tmp_path) as plain:
        namespace["f"](True)  # type: ignore[operator]
    assert plain.trace().sites == frozenset()  # lines are recorded only when asked for
    assert plain.trace().positions == frozenset()


def test_positions_tell_apart_the_calls_of_one_line(tmp_path: Path) -> None:
    """Each call with the span of the expression that made it: two calls of one line, a chained call (which
    starts where the call it is chained to starts), and a method name on a line of its own (the span
    starts there)."""
    source = (
        "class K:\n"
        "    def m(self, x=None):\n"
        "        return self\n\n\n"
        "def g(x):\n"
        "    return K()\n\n\n"
        "def f():\n"
        "    g(1).m(g(2))\n"
        "    (K()\n"
        "        .m())\n"
    )
    write(tmp_path, {"lib.py": source})
    namespace: dict[str, object] = {}
    exec(compile(source, str(tmp_path / "lib.py"), "exec"), namespace)
    with CallRecorder(tmp_path, c_calls=False, lines=True) as recorder:
        namespace["f"]()  # type: ignore[operator]
    positions = {p for p in recorder.trace().positions if p[0] == "lib.f"}
    assert positions == {
        ("lib.f", 11, 4, 11, 8, "lib.g"),  # g(1)
        ("lib.f", 11, 11, 11, 15, "lib.g"),  # g(2), an argument
        ("lib.f", 11, 4, 11, 16, "lib.K.m"),  # g(1).m(g(2))
        ("lib.f", 13, 9, 13, 12, "lib.K.m"),  # .m() on its own line
    }
    assert recorder.trace().sites >= {
        ("lib.f", 11, "lib.g"),
        ("lib.f", 11, "lib.K.m"),
        ("lib.f", 13, "lib.K.m"),
    }


def test_equal_functions_of_two_files_keep_their_own_names(tmp_path: Path) -> None:
    source = "def relpath(path):\n    return path\n\n\ndef use():\n    return relpath('x')\n"
    write(tmp_path, {"one.py": source, "two.py": source})  # equal code objects, whatever their file
    with CallRecorder(tmp_path) as recorder:
        for name in ("one", "two"):
            namespace: dict[str, object] = {}
            exec(compile(source, str(tmp_path / f"{name}.py"), "exec"), namespace)
            namespace["use"]()  # type: ignore[operator]
    assert {("one.use", "one.relpath"), ("two.use", "two.relpath")} <= recorder.trace().edges


def test_trace_round_trips_through_json() -> None:
    trace = Trace(
        edges=frozenset({("a", "b")}),
        resumptions=frozenset({("a", "g")}),
        callbacks=frozenset({("x", "b")}),
        external=frozenset({("a", "math.sqrt")}),
        through=frozenset({("a", "b", "builtins.sorted")}),
        sites=frozenset({("a", 3, "b")}),
        error="E",
    )
    assert Trace.from_json(trace.to_json()) == trace
