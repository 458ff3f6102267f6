"""Toy reward functions for tests/test_probe.py (importable, so the probe can run them in its
deadline workers as ``tests.probe_rewards:NAME``)."""

from __future__ import annotations

import math
import re
import time
from typing import Any

_LINE = re.compile(r"#### (\d+)")


def substring(completion: str, answer: str, **info: Any) -> float:
    """Gameable: pays whenever the gold appears anywhere (a common first reward)."""
    return float(answer in completion)


def answer_line(completion: str, answer: str, **info: Any) -> float:
    """Correct for '#### N' answers: the last non-empty line is exactly '#### <gold>'."""
    lines = [line.strip() for line in completion.splitlines() if line.strip()]
    found = _LINE.fullmatch(lines[-1]) if lines else None
    return 1.0 if found is not None and found.group(1) == answer else 0.0


def exact(completion: str, answer: str) -> float:
    """Correct for bare answers: the completion is the gold and nothing else."""
    return float(completion.strip() == answer)


def broken(completion: str, answer: str) -> Any:
    """Fails in every way a reward can, chosen by what the completion holds."""
    if " or " in completion:
        raise ValueError("cannot read alternatives")
    if "thousand" in completion:
        time.sleep(3600)  # hangs
    if "and" in completion:
        return math.nan
    if "?" in completion:
        return None
    if "(" in completion:
        return "1.0"
    return exact(completion, answer)


def hangs(completion: str, answer: str) -> float:
    """Never returns."""
    time.sleep(3600)
    return 0.0


_NOT_THAN = re.compile(r"\b(?:not|than)\s+(\S+?)[.!]?$")


def pays_negations(completion: str, answer: str, **info: Any) -> float:
    """Correct like ``answer_line``, except that a last line ending in ``not N`` or ``than N``
    is read as the answer N (``It is 19, not 18.`` pays for 18): the probe must flag it."""
    lines = [line.strip() for line in completion.splitlines() if line.strip()]
    found = _NOT_THAN.search(lines[-1]) if lines else None
    if found is not None:
        return float(found.group(1) == answer)
    return answer_line(completion, answer)


_HIDING = re.compile(r"<!--|-->|\\iffalse|\\fi\b|</?(?:span|div|font)[^>]*>|^%\s?", re.M)


def reads_hidden(completion: str, answer: str, **info: Any) -> float:
    """Correct like ``answer_line`` on what renders, except that it drops comment and
    hiding markers instead of their content, so a hidden ``#### N`` counts."""
    return answer_line(_HIDING.sub("", completion), answer)
