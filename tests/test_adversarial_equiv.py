"""The adversarial comparison cases (tests/adversarial_equiv_cases.py): every case gets its
label's reward, every near-miss 0, each within the deadline."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adversarial_equiv_cases import CASES  # noqa: E402

from verifiers.math import math_check  # noqa: E402

DEADLINE = 5.0


def test_the_set_is_large_labelled_both_ways_and_well_formed():
    assert len(CASES) >= 100
    rewards = Counter(reward for _, _, reward, _ in CASES)
    assert rewards[0.0] >= 50 and rewards[1.0] >= 50
    assert set(rewards) == {0.0, 1.0}
    for gold, completion, _, name in CASES:
        assert isinstance(gold, str) and isinstance(completion, str) and name.isidentifier()
    assert len({(g, c) for g, c, _, _ in CASES}) == len(CASES), "duplicate case"


@pytest.mark.parametrize(("gold", "completion", "expected", "name"), CASES)
def test_case(gold, completion, expected, name):
    start = time.perf_counter()
    verdict = math_check(completion, gold, timeout=DEADLINE)
    elapsed = time.perf_counter() - start
    assert verdict.reward == expected, (name, verdict)
    # The deadline, plus a cold worker's sympy import on a loaded 2-core machine.
    assert elapsed < DEADLINE + 15.0, (name, elapsed)
