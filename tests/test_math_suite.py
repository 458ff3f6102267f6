"""The labelled equivalence suite (tests/math_suite.py): zero false positives on traps, and an
accuracy floor overall. ``benchmarks/math_accuracy.py`` prints the same figures next to
math-verify's."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from math_suite import CASES  # noqa: E402

from verifiers.math import math_check  # noqa: E402

ACCURACY_FLOOR = 0.97  # measured: see the README's accuracy table (benchmarks/math_accuracy.py)


def _judge_all() -> list[tuple[object, object]]:
    # Threads: the symbolic path runs in worker processes, so two checks proceed in parallel.
    with ThreadPoolExecutor(max_workers=2) as ex:
        verdicts = list(ex.map(lambda c: math_check(c.pred, c.gold, timeout=10.0), CASES))
    return list(zip(CASES, verdicts))


RESULTS = None


def _results():
    global RESULTS
    if RESULTS is None:
        RESULTS = _judge_all()
    return RESULTS


def test_suite_is_large_and_labelled_both_ways():
    assert len(CASES) >= 300
    assert sum(c.equivalent for c in CASES) >= 100
    assert sum(not c.equivalent for c in CASES) >= 100
    assert sum(c.category.startswith("trap_") for c in CASES) >= 50


def test_no_false_positive_on_any_trap():
    false_positives = [
        (c.category, c.gold, c.pred)
        for c, v in _results()
        if c.category.startswith("trap_") and v.correct
    ]
    assert false_positives == []


def test_no_infrastructure_failures():
    assert [(c.gold, c.pred, v.reason) for c, v in _results() if v.reward is None] == []


def test_accuracy_floor():
    wrong = [
        (c.category, c.gold, c.pred, v.reason) for c, v in _results() if v.correct != c.equivalent
    ]
    accuracy = 1 - len(wrong) / len(CASES)
    assert accuracy >= ACCURACY_FLOOR, wrong


def test_pathological_traps_report_timeout():
    reasons = {c.pred: v.reason for c, v in _results() if c.category == "trap_pathological"}
    assert reasons and set(reasons.values()) == {"timeout"}, reasons
