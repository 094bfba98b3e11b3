"""Tasks, answers and scores: frozen records, one JSON-lines codec and the task-line schema."""

from __future__ import annotations

from dure.tasks.codec import (
    decode_answer,
    decode_task,
    encode_answer,
    encode_task,
    read_tasks,
    score_from_json,
    score_to_json,
    task_from_json,
    task_to_json,
    write_tasks,
)
from dure.tasks.errors import AnswerError, TaskError, UnknownVerifierError
from dure.tasks.frozen import FrozenDict, JsonValue, freeze, thaw
from dure.tasks.model import (
    LAYER_OF_KIND,
    Answer,
    Completion,
    RepoRef,
    Score,
    Task,
    TaskKind,
    VerifierSpec,
    make_task,
    task_id,
)
from dure.tasks.schema import task_schema, validate_task_json

__all__ = [
    "LAYER_OF_KIND",
    "Answer",
    "AnswerError",
    "Completion",
    "FrozenDict",
    "JsonValue",
    "RepoRef",
    "Score",
    "Task",
    "TaskError",
    "TaskKind",
    "UnknownVerifierError",
    "VerifierSpec",
    "decode_answer",
    "decode_task",
    "encode_answer",
    "encode_task",
    "freeze",
    "make_task",
    "read_tasks",
    "score_from_json",
    "score_to_json",
    "task_from_json",
    "task_id",
    "task_schema",
    "task_to_json",
    "thaw",
    "validate_task_json",
    "write_tasks",
]
