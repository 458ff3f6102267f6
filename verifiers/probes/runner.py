"""Run probes against a reward, each call in a killable worker under a hard deadline.

The reward is a function ``module:fn`` wrapped in a one-function rubric (``FunctionScorer``)
or a task's rubric (``tasks.probe.TaskScorer``, built the same way in the layer that knows
tasks); either way ``Rubric.score`` turns what the reward
returned into a number or a typed error (raised, NaN, not a number, ``None``), so every
failure mode is one ``Outcome`` and never stops the run.

Both scorers are specs that travel to the worker as ``(name, options)``: the worker builds
the task or imports the function while it unpickles the call, which
``verifiers.deadline`` does before the deadline starts, so a cold worker's imports never
count as a slow reward.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from verifiers.deadline import STARTUP_TIMEOUT, DeadlineExceeded, WorkerError, run_with_deadline
from verifiers.probes.registry import FamilyError, Probe, ProbeRow, generate

# A reward's own timeout (the rubric's) must not fire inside the probe's deadline first: the
# probe's deadline is the one that is reported.
_NO_SOFT_TIMEOUT = 1e9
_REASON_CHARS = 160


@dataclass(frozen=True)
class Outcome:
    """What one call gave: ``reward`` (None when there was none), the reward's ``reason``,
    an ``error`` (``exception: ...``, ``invalid_return: ...``, ``no_signal: ...``) and the
    wall ``seconds``; ``overrun`` when the deadline killed it."""

    reward: float | None
    reason: str
    error: str | None
    seconds: float
    overrun: bool = False


@dataclass(frozen=True)
class ProbeResult:
    row_id: str
    probe: Probe
    outcome: Outcome


class RubricScorer:
    """A rubric as a probe scorer: ``(reward or None, reasons, error or None)`` per call."""

    def __init__(self, rubric: Any) -> None:
        self.rubric = rubric

    def __call__(
        self, completion: str, answer: str, info: Mapping[str, Any]
    ) -> tuple[float | None, str, str | None]:
        score = self.rubric.score(completion, answer, **info)
        reasons = "; ".join(
            f"{name}={'None' if v is None else format(v, 'g')}"
            + (f" ({score.reasons[name]})" if score.reasons.get(name) else "")
            for name, v in score.breakdown.items()
        )
        error = None
        if score.errors:
            error = "; ".join(str(e) for e in score.errors)
        elif score.total is None:
            error = f"no_signal: {reasons}"
        return score.total, reasons[:_REASON_CHARS], error


LOADED: dict[tuple[Any, ...], RubricScorer] = {}
"""Scorers built in this process (a worker builds each once), by what built them."""


def _function_scorer(target: str) -> RubricScorer:
    key = ("fn", target)
    if key not in LOADED:
        from verifiers.rubric import RewardFunc, Rubric

        fn = load_function(target)
        name = target.rpartition(":")[2]
        rubric = Rubric([RewardFunc(name, fn, in_process=True)], timeout=_NO_SOFT_TIMEOUT)
        LOADED[key] = RubricScorer(rubric)
    return LOADED[key]


def load_function(target: str) -> Callable[..., Any]:
    """``package.module:function`` imported; ``ValueError`` with one line when it is not."""
    import importlib

    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"--reward {target}: expected package.module:function")
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as e:  # the user's module: any failure while importing it is theirs
        raise ValueError(
            f"--reward {target}: cannot import {module_name}: {type(e).__name__}: {e}"
        ) from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"--reward {target}: {module_name} has no {attr!r}") from None
    if not callable(obj):
        raise ValueError(f"--reward {target}: {attr} is a {type(obj).__name__}, not a function")
    return obj


class FunctionScorer:
    """A reward function ``module:fn(completion, answer, **info) -> float | Verdict``."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __reduce__(self) -> tuple[Any, ...]:
        return (_function_scorer, (self.target,))


def _score(scorer: Any, completion: str, answer: str, info: Mapping[str, Any]) -> Any:
    # Module-level: pickled by reference into the deadline worker.
    return scorer(completion, answer, info)


def call(
    scorer: Any, row: ProbeRow, completion: str, *, timeout: float
) -> Outcome:
    """Score one completion of ``row`` within ``timeout`` seconds; never raises."""
    start = time.monotonic()
    try:
        reward, reason, error = run_with_deadline(
            _score, scorer, completion, row.gold, dict(row.info), timeout=timeout
        )
    except DeadlineExceeded:
        took = time.monotonic() - start
        return Outcome(None, "", f"overrun: killed after {timeout:g} s", took, overrun=True)
    except WorkerError as e:
        took = time.monotonic() - start
        return Outcome(None, "", f"exception: {e.type_name}: {e.message}"[:300], took)
    took = time.monotonic() - start
    return Outcome(reward, reason, error, took)


def warm_up(scorer: Any, row: ProbeRow, timeout: float) -> Outcome:
    """One call with a generous deadline, so the next ones find the worker's own workers
    (a math verifier's sympy process) started."""
    return call(scorer, row, row.reference, timeout=min(max(3 * timeout, 10.0), STARTUP_TIMEOUT))


def run(
    scorer: Any,
    rows: Sequence[ProbeRow],
    kind: str,
    *,
    timeout: float,
    only: Sequence[str] | None = None,
    workers: int = 1,
) -> tuple[list[ProbeResult], list[FamilyError]]:
    """Generate every row's probes and score them; results in generation order."""
    jobs: list[tuple[ProbeRow, Probe]] = []
    family_errors: list[FamilyError] = []
    for i, row in enumerate(rows):
        probes, errors = generate(row, kind, only=only, first=i == 0)
        jobs += [(row, p) for p in probes]
        family_errors += errors
    # A reward that fails on the reference itself would only make each warm-up cost a deadline.
    warming = [bool(rows and jobs)]
    if warming[0]:
        # concurrently, so that each of the pool's workers is the one warmed
        with ThreadPoolExecutor(max_workers=workers) as pool:
            warm = list(pool.map(lambda _: warm_up(scorer, rows[0], timeout), range(workers)))
        warming[0] = not any(w.overrun or w.error for w in warm)

    def one(job: tuple[ProbeRow, Probe]) -> ProbeResult:
        row, probe = job
        outcome = call(scorer, row, probe.completion, timeout=timeout)
        if outcome.overrun and warming[0]:
            # the killed worker's replacement starts cold
            warming[0] = not warm_up(scorer, row, timeout).overrun
        return ProbeResult(row.id, probe, outcome)

    if workers <= 1:
        return [one(job) for job in jobs], family_errors
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="probe") as pool:
        return list(pool.map(one, jobs)), family_errors
