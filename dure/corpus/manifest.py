"""Corpus manifests: pinned source distributions, read from TOML into frozen, validated records.

A manifest is a ``[corpus]`` table (``name``, ``description``) and an array of ``[[package]]`` tables. Every
problem is a :class:`~dure.errors.ManifestError` naming the file and the key at fault, e.g.
``corpus/main.toml: package[3].sha256: expected 64 hex digits, got 'abc'``.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Literal, NoReturn, TypeVar, cast

from dure.errors import ManifestError

TestStatus = Literal["pass", "partial", "broken", "slow"]
TEST_STATUSES: tuple[TestStatus, ...] = ("pass", "partial", "broken", "slow")
DEFAULT_TIMEOUT = 180

_SHA256 = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_T = TypeVar("_T")
_D = TypeVar("_D")


def canonical_name(name: str) -> str:
    """The registry's normal form of a name (PEP 503): ``Docstring_Parser`` -> ``docstring-parser``."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True, slots=True)
class TestSpec:
    """How to run a package's own tests from the root of its unpacked source distribution."""

    __test__ = False  # not a pytest test class

    command: tuple[str, ...]  # argv, run from the unpacked root
    deps: tuple[str, ...] = ()  # PEP 508 requirements to install next to the package (markers kept)
    env: tuple[tuple[str, str], ...] = ()  # extra environment variables, sorted by name
    timeout: int = DEFAULT_TIMEOUT  # seconds
    status: TestStatus = "pass"  # measured: pass | partial (some fail on this host) | broken | slow
    seconds: float | None = None  # measured CPU seconds of one run

    def environment(self) -> dict[str, str]:
        """The extra environment variables as a dict."""
        return dict(self.env)


@dataclass(frozen=True, slots=True)
class PackageSpec:
    """One pinned source distribution of the package registry."""

    name: str
    version: str
    sha256: str  # of the source distribution file, lowercase hex
    domain: str
    has_tests: bool  # does the sdist ship its tests?
    tests: TestSpec | None  # None when the sdist ships no tests
    annotated: float | None = None  # measured fraction of annotated parameters and returns
    lines: int | None = None  # measured lines of non-test code
    notes: str = ""

    @property
    def key(self) -> str:
        """``name-version`` with the name normalised: the directory name of the unpacked source."""
        return f"{canonical_name(self.name)}-{self.version}"


@dataclass(frozen=True, slots=True)
class Manifest:
    """A named, ordered set of packages, read from :attr:`path`."""

    name: str
    description: str
    path: Path
    packages: tuple[PackageSpec, ...]

    def get(self, name: str) -> PackageSpec | None:
        """The package called ``name`` (any spelling the registry treats as the same), or None."""
        wanted = canonical_name(name)
        return next((spec for spec in self.packages if canonical_name(spec.name) == wanted), None)

    def names(self) -> list[str]:
        return [spec.name for spec in self.packages]


def manifest_dir() -> Path:
    """The shipped manifests' folder: ``dure/_corpus`` in a wheel, else ``corpus/`` of the source tree."""
    shipped = files("dure") / "_corpus"
    if shipped.is_dir():
        return Path(str(shipped))
    return Path(__file__).resolve().parent.parent.parent / "corpus"


def shipped_manifests() -> list[str]:
    """Names of the shipped manifests (``default``, ``main``, ...)."""
    folder = manifest_dir()
    return sorted(path.stem for path in folder.glob("*.toml")) if folder.is_dir() else []


def manifest_path(name_or_path: str | Path) -> Path:
    """The file a manifest name (``default``, ``main``) or a path to a TOML file designates."""
    if isinstance(name_or_path, Path) or name_or_path.endswith(".toml") or "/" in name_or_path:
        return Path(name_or_path)
    candidate = manifest_dir() / f"{name_or_path}.toml"
    if not candidate.is_file():
        known = ", ".join(shipped_manifests()) or "none"
        reason = f"no shipped manifest of that name (shipped: {known}); give a path to a .toml file instead"
        raise ManifestError(name_or_path, "corpus", reason)
    return candidate


def load_manifest(name_or_path: str | Path) -> Manifest:
    """Read and validate a manifest: a shipped name (``default``, ``main``) or a path to a TOML file."""
    path = manifest_path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as problem:
        raise ManifestError(path, "corpus", f"cannot read: {problem.strerror or problem}") from problem
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise ManifestError(path, "(syntax)", str(problem)) from problem
    return parse_manifest(data, path)


def parse_manifest(data: dict[str, object], path: Path) -> Manifest:
    """Validate the parsed TOML ``data`` of the file at ``path``."""
    top = _Table(data, path, "")
    header = _Table(top.required("corpus", dict), path, "corpus")
    name = header.required("name", str)
    description = header.optional("description", str, "")
    header.done()
    raw_packages = top.required("package", list)
    top.done()
    packages: list[PackageSpec] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(raw_packages):
        key = f"package[{index}]"
        spec = _package(_Table(_typed(raw, dict, path, key), path, key))
        first = seen.setdefault(canonical_name(spec.name), index)
        if first != index:
            raise ManifestError(
                path, f"{key}.name", f"duplicate package {spec.name!r} (also package[{first}])"
            )
        packages.append(spec)
    if not packages:
        raise ManifestError(path, "package", "a manifest needs at least one [[package]]")
    return Manifest(name=name, description=description, path=path, packages=tuple(packages))


def _package(table: _Table) -> PackageSpec:
    name = table.required("name", str)
    if not _NAME.fullmatch(name):
        table.fail("name", f"not a valid distribution name: {name!r}")
    version = table.required("version", str)
    if not version or any(char.isspace() or char in "/\\" for char in version):
        table.fail("version", f"not a valid version: {version!r}")
    sha256 = table.required("sha256", str)
    if not _SHA256.fullmatch(sha256):
        table.fail("sha256", f"expected 64 lowercase hex digits, got {sha256!r}")
    has_tests = table.required("has_tests", bool)
    raw_tests = table.optional("tests", dict, None)
    if has_tests and raw_tests is None:
        table.fail("tests", f"{name}: has_tests = true needs a [package.tests] table")
    if not has_tests and raw_tests is not None:
        table.fail("tests", f"{name}: has_tests = false but a [package.tests] table is given")
    tests = _tests(_Table(raw_tests, table.path, table.key("tests"))) if raw_tests is not None else None
    annotated = table.optional("annotated", float, None)
    if annotated is not None and not 0.0 <= annotated <= 1.0:
        table.fail("annotated", f"a fraction between 0 and 1, got {annotated}")
    lines = table.optional("lines", int, None)
    if lines is not None and lines < 0:
        table.fail("lines", f"must not be negative, got {lines}")
    spec = PackageSpec(
        name=name,
        version=version,
        sha256=sha256,
        domain=table.required("domain", str),
        has_tests=has_tests,
        tests=tests,
        annotated=annotated,
        lines=lines,
        notes=table.optional("notes", str, ""),
    )
    table.done()
    return spec


def _tests(table: _Table) -> TestSpec:
    raw_command: object = table.required("command", (str, list))
    command = _argv(table, raw_command)
    deps = tuple(table.strings("deps"))
    raw_env = table.optional("env", dict, {})
    env: list[tuple[str, str]] = []
    for variable, value in sorted(raw_env.items()):
        if not _ENV_NAME.fullmatch(variable):
            table.fail(f"env.{variable}", "not a valid environment variable name")
        env.append((variable, _typed(value, str, table.path, table.key(f"env.{variable}"))))
    timeout = table.optional("timeout", int, DEFAULT_TIMEOUT)
    if timeout <= 0:
        table.fail("timeout", f"must be a positive number of seconds, got {timeout}")
    status = table.optional("status", str, "pass")
    if status not in TEST_STATUSES:
        table.fail("status", f"one of {', '.join(TEST_STATUSES)}, got {status!r}")
    seconds = table.optional("seconds", float, None)
    table.done()
    return TestSpec(
        command=command,
        deps=deps,
        env=tuple(env),
        timeout=timeout,
        status=status,
        seconds=seconds,
    )


def _argv(table: _Table, raw: object) -> tuple[str, ...]:
    if isinstance(raw, str):
        try:
            argv = shlex.split(raw)
        except ValueError as problem:
            table.fail("command", f"cannot split into arguments: {problem}")
    else:
        argv = table.strings("command", raw)
    if not argv or not all(argv):
        table.fail("command", "must be a non-empty command with non-empty arguments")
    return tuple(argv)


def _typed(value: object, kind: type[_T] | tuple[type, ...], path: Path, key: str) -> _T:
    """``value`` if it has the expected TOML type (a bool is no int; an int is a float), else an error."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if float in kinds and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    if not ok:
        wanted = " or ".join(_TOML_TYPES.get(each, each.__name__) for each in kinds)
        got = _TOML_TYPES.get(type(value), type(value).__name__)
        raise ManifestError(path, key, f"expected {wanted}, got {got}")
    return cast(_T, value)


_TOML_TYPES: dict[type, str] = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    list: "an array",
    dict: "a table",
}


class _Table:
    """One TOML table being validated: typed access by key, unknown keys reported at the end."""

    def __init__(self, data: dict[str, object], path: Path, prefix: str) -> None:
        self.data = data
        self.path = path
        self.prefix = prefix
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.prefix}.{name}" if self.prefix else name

    def fail(self, name: str, reason: str) -> NoReturn:
        raise ManifestError(self.path, self.key(name), reason)

    def required(self, name: str, kind: type[_T] | tuple[type, ...]) -> _T:
        self.used.add(name)
        if name not in self.data:
            self.fail(name, "missing")
        return _typed(self.data[name], kind, self.path, self.key(name))

    def optional(self, name: str, kind: type[_T], default: _D) -> _T | _D:
        self.used.add(name)
        if name not in self.data:
            return default
        return _typed(self.data[name], kind, self.path, self.key(name))

    def strings(self, name: str, raw: object = None) -> list[str]:
        """An array of non-empty strings: ``raw`` if given, else the value at ``name`` (missing: empty)."""
        self.used.add(name)
        values = raw if raw is not None else self.data.get(name, [])
        items = _typed(values, list, self.path, self.key(name))
        result = [_typed(item, str, self.path, f"{self.key(name)}[{i}]") for i, item in enumerate(items)]
        for i, item in enumerate(result):
            if not item.strip():
                self.fail(f"{name}[{i}]", "must not be empty")
        return result

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            self.fail(unknown[0], f"unknown key (known: {', '.join(sorted(self.used))})")
