"""Errors about tasks and answers: where a line came from and what is wrong with it."""

from __future__ import annotations

from dure.errors import DureError


class TaskError(DureError):
    """A task is not well formed (a field is missing, has the wrong type, or an id does not match)."""

    def __init__(
        self, field: str, reason: str, *, source: str | None = None, line: int | None = None
    ) -> None:
        self.field = field
        self.reason = reason
        self.source = source
        self.line = line
        where = f"{source}:{line}: " if source is not None and line is not None else ""
        super().__init__(f"{where}{field}: {reason}")


class AnswerError(DureError):
    """An answer line or an answer text cannot be read (not JSON, no task id, ...)."""

    def __init__(self, reason: str, *, source: str | None = None, line: int | None = None) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        where = f"{source}:{line}: " if source is not None and line is not None else ""
        super().__init__(f"{where}{reason}")


class UnknownVerifierError(DureError):
    """A task names a verifier that is neither built in nor provided by an installed plugin."""

    def __init__(self, name: str, known: tuple[str, ...], reason: str = "") -> None:
        self.name = name
        self.known = known
        extra = f" ({reason})" if reason else ""
        super().__init__(f"unknown verifier {name!r}{extra}; known: {', '.join(known)}")
