"""The public equivalence cases (tests/public_equiv_cases.py: other graders' tests, not ours):
every case gets its source's label except the disagreements listed here, each with its reason.
A new disagreement, or a listed one that went away, fails."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from public_equiv_cases import CASES  # noqa: E402

from verifiers.math import math_check  # noqa: E402

# (gold, prediction in the box) -> why we differ from the source's label.
KNOWN_DISAGREEMENTS = {
    ("10, 4, -2", "4, 10, -2"): "bare lists are solution sets here (tests/math_suite.py 'set')",
    ("0.1, 4, 2", "4, .1, 2"): "bare lists are solution sets here",
    ("17", "17\\text{ any text}"): "unknown words in \\text{} may negate the number: refused",
    ("C", "C. x = 42"): "a choice followed by text is no bare choice: refused when unsure",
    ("C. x = 42", "C"): "the same pair the other way round",
}


def _boxed(completion: str) -> str:
    return completion[len("$\\boxed{") : -len("}$")]


def test_public_cases_agree_with_their_sources_except_the_listed_ones():
    disagreements = set()
    for gold, completion, expected, _ in CASES:
        if math_check(completion, gold, timeout=10.0).reward != expected:
            disagreements.add((gold, _boxed(completion)))
    assert disagreements == set(KNOWN_DISAGREEMENTS)


def test_the_benchmark_reports_every_labelled_set():
    from math_accuracy import labelled_sets

    sets = labelled_sets()
    assert {"suite", "adversarial_equiv_cases", "public_equiv_cases"} <= set(sets)
    for cases in sets.values():
        assert cases and all(isinstance(label, bool) for _, _, label, _ in cases)
