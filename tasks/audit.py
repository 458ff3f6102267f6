"""The audit: score every reference completion under the task's own rubric.

A reference that does not score 1.0 is a bug in the verifier, the rubric, the prompt's
promised format or the data, and it would silently cap (or zero) the reward of every run on
that task. Every task, built-in or new, gets this check for free.

>>> import tasks
>>> report = audit(tasks.get("arithmetic"), splits=["test"], limit=20)
>>> report.summary("arithmetic")
'audit arithmetic: 20/20 references score 1.0'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from tasks.base import ENDLESS_LIMIT, Row, Task

PERFECT = 1.0 - 1e-9  # rubric totals are sums of floats
# Rows per split an unlimited audit reads from a task that does not say it is endless: more
# than any shipped split (GSM8K train: 7,473), and a bound if the task is endless after all.
MAX_ROWS = 100_000


@dataclass(frozen=True)
class Failure:
    row_id: str
    total: float | None
    reason: str


@dataclass
class AuditReport:
    checked: int = 0
    failures: list[Failure] = field(default_factory=list)
    # splits that gave no row: "0/0 score 1.0" would read as a pass while nothing was checked
    empty: list[str] = field(default_factory=list)
    # why fewer rows than the task has were checked, when no --limit asked for it
    bounded: str = ""

    @property
    def passed(self) -> int:
        return self.checked - len(self.failures)

    def summary(self, name: str) -> str:
        line = f"audit {name}: {self.passed}/{self.checked} references score 1.0"
        if self.empty:
            line += f"; no rows in split {', '.join(self.empty)}"
        if self.bounded:
            line += f" ({self.bounded})"
        return line


def explain(score) -> str:  # type: ignore[no-untyped-def]
    """One line per reward function that did not give 1.0: ``name=value (reason)``."""
    parts = []
    for name, value in score.breakdown.items():
        if value is None or value < PERFECT:
            reason = score.reasons.get(name, "") if score.reasons else ""
            shown = "None" if value is None else f"{value:g}"
            parts.append(f"{name}={shown}" + (f" ({reason})" if reason else ""))
    for error in score.errors or ():
        parts.append(f"error: {error}")
    return "; ".join(parts) or f"total={score.total}"


def passes(score) -> bool:  # type: ignore[no-untyped-def]
    """1.0 overall, every function at 1.0, and no reward function error."""
    return (
        score.total is not None
        and score.total >= PERFECT
        and not score.errors
        and all(v is not None and v >= PERFECT for v in score.breakdown.values())
    )


def _score_rows(task: Task, rows: list[Row], workers: int) -> Iterator[tuple[Row, object]]:
    completions = [task.reference_completion(row) for row in rows]
    if workers > 1 and len(rows) > 1:
        scores = task.rubric.score_batch(
            completions, [r.answer for r in rows], [dict(r.info) for r in rows], workers=workers
        )
        yield from zip(rows, scores)
    else:  # one at a time, so progress is reported as the rows are scored
        for row, completion in zip(rows, completions):
            yield row, task.score(row, completion)


def audit(
    task: Task,
    *,
    splits: Iterable[str] | None = None,
    seed: int = 0,
    limit: int | None = None,
    path: str | None = None,
    workers: int = 1,
    progress: Callable[[str, int], None] | None = None,
) -> AuditReport:
    """Score the reference completion of every row of ``splits`` (default: all of them).

    Without ``limit``, an endless task gives its first :data:`ENDLESS_LIMIT` rows per split,
    and any other task at most :data:`MAX_ROWS` (then it is likely endless); the report's
    ``bounded`` says which happened. ``progress(split, rows_scored_in_split)`` is called
    after each row (the CLI reports a long audit, which would otherwise look hung)."""
    report = AuditReport()
    for split in splits or task.splits:
        if limit is None and task.endless:
            rows = task.rows(split, seed=seed, limit=ENDLESS_LIMIT, path=path)
            report.bounded = (f"endless task: the first {ENDLESS_LIMIT} rows per split; "
                              "--limit N for another number")
        elif limit is None:
            rows = task.rows(split, seed=seed, limit=MAX_ROWS + 1, path=path)
            if len(rows) > MAX_ROWS:
                rows = rows[:MAX_ROWS]
                report.bounded = (f"stopped at {MAX_ROWS} rows per split: the task may be "
                                  "endless; declare Task(endless=True) or give --limit N")
        else:
            rows = task.rows(split, seed=seed, limit=limit, path=path)
        if not rows:
            report.empty.append(split)
        for done, (row, score) in enumerate(_score_rows(task, rows, workers), 1):
            report.checked += 1
            if progress is not None:
                progress(split, done)
            if not passes(score):
                report.failures.append(Failure(row.id, score.total, explain(score)))
    return report
