"""``set``: the answer is a set of names (callers, subclasses, dead code), scored by precision and recall.

Parameters (``task.verifier.params``): ``ignored`` (items whose status the analysis cannot know: listing them
neither helps nor hurts), ``forbidden`` (items known to be wrong, such as live code claimed dead: each costs
``forbidden_weight`` ordinary false positives, default 3), ``candidates`` (the plausible items an agent could
list; the self-audit lists them all to check that guessing everything scores badly) and ``normalize``
(``"qualname"``, the default, or ``"strip"``) and ``ignore_special`` (true: special methods, ``x.__name__``,
are ignored too, whether the analysis found them or not: the interpreter calls them implicitly).

Precision counts forbidden items with their weight; recall is over the required items (the reference answer);
the score is F1, and 1.0 only for exactly the required set (ignored items aside).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from dure.tasks.errors import AnswerError, TaskError
from dure.tasks.frozen import FrozenDict, JsonValue
from dure.tasks.model import Score, Task
from dure.verifiers._registry import register
from dure.verifiers.base import FORMAT, AuditCase, Expect, Verifier, clip, string_items

MAX_ITEMS = 10_000
DEFAULT_FORBIDDEN_WEIGHT = 3.0
EVERYTHING_MAX = 0.5  # listing every candidate must score at most this, or the task is too easy to game
NORMALIZERS = ("qualname", "strip")


def normalize_qualname(text: str) -> str:
    """One spelling of a qualified name: no surrounding space or backticks, no ``()``, ``mod:obj`` as dots."""
    text = text.strip().strip("`").strip()
    if text.endswith("()"):
        text = text[:-2]
    return text.replace(":", ".")


@dataclass(frozen=True, slots=True)
class Gold:
    required: frozenset[str]
    ignored: frozenset[str]
    forbidden: frozenset[str]
    candidates: tuple[str, ...]
    forbidden_weight: float
    qualname: bool
    ignore_special: bool = False

    def normalize(self, text: str) -> str:
        return normalize_qualname(text) if self.qualname else text.strip()


@functools.lru_cache(maxsize=4096)
def gold_of(answer: JsonValue, params: FrozenDict) -> Gold:
    """The normalised reference sets of a task (cached: tasks are immutable and scored many times)."""
    mode = params.get("normalize", "qualname")
    if mode not in NORMALIZERS:
        raise TaskError("verifier.params.normalize", f"{mode!r} is not one of {NORMALIZERS}")
    weight = params.get("forbidden_weight", DEFAULT_FORBIDDEN_WEIGHT)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 1.0 <= weight <= 1000.0:
        raise TaskError("verifier.params.forbidden_weight", "must be a number from 1 to 1000")
    norm = normalize_qualname if mode == "qualname" else str.strip

    def items(value: JsonValue, what: str) -> frozenset[str]:
        return frozenset(norm(item) for item in string_items(value, what, limit=10**6, error=TaskError))

    required = items(answer, "answer")
    ignored = items(params.get("ignored", ()), "verifier.params.ignored")
    forbidden = items(params.get("forbidden", ()), "verifier.params.forbidden")
    if required & (ignored | forbidden):
        raise TaskError("verifier.params", "a required item is also ignored or forbidden")
    candidates = tuple(sorted(items(params.get("candidates", ()), "verifier.params.candidates")))
    ignore_special = params.get("ignore_special", False)
    if not isinstance(ignore_special, bool):
        raise TaskError("verifier.params.ignore_special", "must be true or false")
    if ignore_special and any(map(is_special_name, required)):
        raise TaskError(
            "verifier.params", "a required item is a special method, which ignore_special ignores"
        )
    return Gold(required, ignored, forbidden, candidates, float(weight), mode == "qualname", ignore_special)


def is_special_name(name: str) -> bool:
    """``pkg.C.__len__``: a special method (its last name part is ``__x__``)."""
    last = name.rpartition(".")[2]
    return len(last) > 4 and last.startswith("__") and last.endswith("__")


@dataclass(frozen=True, slots=True)
class SetCounts:
    """``set``-style precision/recall/F1 of a claimed set, ``costly`` items charged like forbidden ones."""

    true_positives: int
    other: int
    precision: float
    recall: float
    f1: float


def set_counts(gold: Gold, given: set[str], costly: set[str]) -> SetCounts:
    true_pos = len(given & gold.required)
    charged_high = (gold.forbidden & given) | (costly & given)
    other = len(given) - true_pos - len(charged_high)
    charged = true_pos + other + gold.forbidden_weight * len(charged_high)
    if not gold.required:
        precision = recall = 1.0 if not given else 0.0
    else:
        precision = true_pos / charged if charged else 0.0
        recall = true_pos / len(gold.required)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return SetCounts(true_pos, other, precision, recall, f1)


@register
class SetVerifier(Verifier):
    name = "set"
    description = "a set of names; F1 over the required items, ignored items free, forbidden items costly"
    components = (FORMAT, "precision", "recall", "f1")

    def check(self, task: Task, answer: JsonValue) -> Score:
        gold = gold_of(task.answer, task.verifier.params)
        given = {
            gold.normalize(item)
            for item in string_items(answer, "answer", limit=MAX_ITEMS, error=AnswerError)
        }
        given -= gold.ignored
        if gold.ignore_special:
            given = {item for item in given if not is_special_name(item)}
        counts = set_counts(gold, given, set())
        exact = given == gold.required
        details = {
            "true_positives": counts.true_positives,
            "missing": len(gold.required) - counts.true_positives,
            "false_positives": counts.other,
            "forbidden": sorted(clip(item) for item in given & gold.forbidden)[:20],
        }
        components = {FORMAT: 1.0, "precision": counts.precision, "recall": counts.recall, "f1": counts.f1}
        return self.score(1.0 if exact else min(counts.f1, 0.999), components, details)

    def audit_cases(self, task: Task) -> tuple[AuditCase, ...]:
        gold = gold_of(task.answer, task.verifier.params)
        reference = sorted(gold.required)
        rng = random.Random(task.id)
        shuffled = reference[:]
        rng.shuffle(shuffled)
        cases = [
            AuditCase("reversed", tuple(reversed(reference)), Expect.EQUIVALENT),
            AuditCase("shuffled", tuple(shuffled), Expect.EQUIVALENT),
            AuditCase("duplicated", tuple(reference + reference[:1]), Expect.EQUIVALENT),
            AuditCase("respelled", tuple(f" {item} " for item in reference), Expect.EQUIVALENT),
            AuditCase("with ignored", tuple(reference + sorted(gold.ignored)), Expect.EQUIVALENT),
        ]
        pool = sorted(gold.forbidden | set(gold.candidates) | gold.required | gold.ignored)
        everything = tuple(pool)
        if set(everything) - gold.ignored != gold.required:
            cases.append(AuditCase("everything", everything, Expect.WRONG, EVERYTHING_MAX))
        wrong = sorted((gold.forbidden | set(gold.candidates)) - gold.required - gold.ignored)
        size = len(reference)
        if reference:
            cases.append(AuditCase("empty", (), Expect.WRONG, 0.0))
            one_missing_f1 = 2 * (size - 1) / (2 * size - 1)
            cases.append(AuditCase("one missing", tuple(reference[1:]), Expect.WRONG, one_missing_f1))
        else:
            decoy = wrong[0] if wrong else "decoy.not_an_answer"
            cases.append(AuditCase("one extra", (decoy,), Expect.WRONG, 0.0))
        if wrong and reference:
            cases.append(AuditCase("one wrong", (*reference[1:], wrong[0]), Expect.WRONG, (size - 1) / size))
            sample = tuple(rng.sample(wrong + reference, k=size))
            if set(sample) != gold.required:
                cases.append(AuditCase("random of the right size", sample, Expect.WRONG, 0.999))
        return tuple(cases)
