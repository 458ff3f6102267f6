"""``code_check`` / ``code_reward``: score a model's completion by running its code.

>>> code_reward("```python\\ndef inc(x):\\n    return x + 1\\n```",
...             [{"entry_point": "inc", "args": [1], "expected": 2}])
1.0
>>> extract_code("Here:\\n```py\\nprint(1)\\n```\\nand\\n```python\\nprint(2)\\n```")
'print(2)\\n'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from verifiers.code.datasets import join_program
from verifiers.code.run import DEFAULT_TIMEOUT, run_tests
from verifiers.code.sandbox import Limits, SandboxPool
from verifiers.types import CORRECT, NO_ANSWER, NO_SIGNAL, WRONG, Verdict, not_a_string

_PY_FENCE = re.compile(r"```[ \t]*(?:python3?|py)[ \t]*\n(.*?)(?:```|\Z)", re.S | re.I)
_ANY_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.S)


def extract_code(completion: str) -> str:
    """The last fenced ```python block (then the last fenced block of any language), or
    the raw text when there is no fence.

    >>> extract_code("def f():\\n    return 1")
    'def f():\\n    return 1'
    """
    for pattern in (_PY_FENCE, _ANY_FENCE):
        blocks = pattern.findall(completion)
        if blocks:
            return blocks[-1]
    return completion


def _as_tests(tests: Any) -> Sequence[Mapping[str, Any]]:
    if isinstance(tests, str):  # Row.answer is a str: a JSON list of test dicts
        try:
            tests = json.loads(tests)
        except ValueError as e:
            raise ValueError(f"tests: a str must be a JSON list of test dicts ({e})") from None
    return tests


def code_check(
    completion: str,
    tests: Sequence[Mapping[str, Any]] | str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    all_or_nothing: bool = False,
    prefix: str = "",
    limits: Limits | None = None,
    pool: SandboxPool | None = None,
    **info: Any,
) -> Verdict:
    """Extract the code (:func:`extract_code`), prepend ``prefix`` (e.g. a prompt's imports),
    run it against ``tests`` and return a ``Verdict``.

    ``reward`` is the fraction of tests passed (or 1/0 with ``all_or_nothing``), ``None``
    when the sandbox failed. ``details`` holds the per-test results and the isolation in
    force. Extra keyword arguments (a Rubric passes a row's ``info``) are ignored.
    """
    if not isinstance(completion, str):
        return not_a_string(completion)
    code = extract_code(completion)
    if not code.strip():
        return Verdict(0.0, NO_ANSWER, pred=None, details={"why": "no code in the completion"})
    program = join_program(prefix, code)  # ``from __future__`` imports stay first
    result = run_tests(program, _as_tests(tests), timeout=timeout, limits=limits, pool=pool)
    details = {
        "passed": result.passed,
        "total": len(result.tests),
        "tests": result.tests,
        "isolation": result.isolation,
    }
    if result.reward is None:
        return Verdict(None, NO_SIGNAL, pred=code, details={**details, "why": result.reason})
    reward = result.all_or_nothing if all_or_nothing else result.reward
    failed = [t for t in result.tests if not t.passed]
    reason = CORRECT if not failed else WRONG
    if failed and all(t.error == "timeout" for t in failed):
        reason = "timeout"
    return Verdict(reward, reason, pred=code, details=details)


def code_reward(
    completion: str, tests: Sequence[Mapping[str, Any]] | str, **kw: Any
) -> float | None:
    """:func:`code_check`'s reward alone (``None`` = no signal, the sandbox failed)."""
    return code_check(completion, tests, **kw).reward
