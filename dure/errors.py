"""One exception root for dure, with structured fields for messages users can act on."""

from __future__ import annotations

from pathlib import Path


class DureError(Exception):
    """Base of every error dure raises on purpose; the CLI prints it as ``dure: error: ...``."""


class ManifestError(DureError):
    """A corpus manifest is malformed: names the file and the key at fault."""

    def __init__(self, path: Path | str, key: str, reason: str) -> None:
        self.path = str(path)
        self.key = key
        self.reason = reason
        super().__init__(f"{self.path}: {key}: {reason}")


class FetchError(DureError):
    """A source distribution could not be fetched, verified or unpacked."""

    def __init__(self, package: str, reason: str) -> None:
        self.package = package
        self.reason = reason
        super().__init__(f"{package}: {reason}")


class PackageNotFoundError(FetchError):
    """The package index has no such package, version or source distribution (HTTP 404 and the like)."""


class UnknownPackageError(DureError):
    """A name that is neither in the manifest nor an existing directory."""

    def __init__(self, name: str, manifest: str) -> None:
        self.name = name
        self.manifest = manifest
        super().__init__(f"unknown package {name!r}: not in {manifest} and not a directory")


class AnalysisError(DureError):
    """A repository could not be analysed at all (a per-file problem is a diagnostic, not an error)."""


class QueryError(DureError):
    """A query names something the index does not know."""

    def __init__(self, query: str, name: str, reason: str) -> None:
        self.query = query
        self.name = name
        self.reason = reason
        super().__init__(f"{query}({name}): {reason}")
