"""Typed results of running code against tests.

>>> r = CodeResult(tests=(TestResult(0, "call", True), TestResult(1, "call", False, "wrong")))
>>> r.reward, r.all_passed, r.all_or_nothing
(0.5, False, 0.0)
>>> CodeResult(tests=(), status="no_signal", reason="sandbox did not start").reward is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TestResult:
    """One test's outcome. ``error`` names why it failed (an exception type, ``"wrong"``,
    ``"timeout"``, ``"CandidateDied"``...); ``stdout``/``stderr`` are capped excerpts."""

    __test__ = False  # not a pytest class, despite the name

    index: int
    kind: str  # "call" | "stdin" | "assert"
    passed: bool
    error: str | None = None
    message: str = ""
    time: float = 0.0
    stdout: str = ""
    stderr: str = ""
    got: str | None = None  # repr excerpt of the value or output the candidate produced


@dataclass(frozen=True)
class CodeResult:
    """All tests of one candidate.

    ``status`` is ``"ok"`` when every test got a verdict, ``"no_signal"`` when the sandbox
    itself failed (then ``reward`` is ``None``: not the code's fault, drop it from the loss).
    A timeout or crash is the code's fault: those tests fail and ``status`` stays ``"ok"``.
    ``isolation`` says what was in force (namespaces, uid, filesystem, limits).
    """

    tests: tuple[TestResult, ...]
    status: str = "ok"
    reason: str = ""
    isolation: Mapping[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tests)

    @property
    def reward(self) -> float | None:
        """Fraction of tests passed, or ``None`` for no signal."""
        if self.status == "no_signal" or not self.tests:
            return None
        return self.passed / len(self.tests)

    @property
    def all_passed(self) -> bool:
        return self.status != "no_signal" and bool(self.tests) and self.passed == len(self.tests)

    @property
    def all_or_nothing(self) -> float | None:
        """1.0 if every test passed, 0.0 otherwise, ``None`` for no signal."""
        if self.reward is None:
            return None
        return 1.0 if self.all_passed else 0.0
