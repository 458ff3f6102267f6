"""Code with feedback: after a failing attempt the env shows the failing tests' output.

Example:
    >>> env = CodeFeedbackEnv("mbpp", split="train", max_attempts=3)   # doctest: +SKIP
    >>> prompt, _ = env.reset(seed=0)                                  # doctest: +SKIP
    >>> reply, reward, terminated, truncated, info = env.step("```python\\npass\\n```")  # doctest: +SKIP
    >>> reply[0]["content"].splitlines()[0]                            # doctest: +SKIP
    'Your code failed 4 of 4 tests:'
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from envs.base import TextEnv, check_discount, check_int, show
from envs.single_turn import DEFAULT_ROW_LIMIT, TaskEnvMixin, row_messages, score_info

_EXCERPT = 300


def _short(text: str, n: int = _EXCERPT) -> str:
    text = text.strip()
    return text if len(text) <= n else text[: n - 3] + "..."


def describe_failures(result_tests: Sequence[Any], tests: Sequence[Mapping[str, Any]], *,
                      max_shown: int = 3) -> str:
    """A feedback message naming the failing tests (their source when it is an assert, the
    error, the value the code produced, and its output), at most ``max_shown`` of them.

    Example:
        >>> from verifiers.code import TestResult
        >>> print(describe_failures(
        ...     [TestResult(0, "assert", False, "AssertionError", got="4")],
        ...     [{"assert_code": "assert add(2, 2) == 5", "entry_point": "add"}]))
        Your code failed 1 of 1 tests:
        Test 1: assert add(2, 2) == 5
          error: AssertionError
          got: 4
    """
    failed = [t for t in result_tests if not t.passed]
    lines = [f"Your code failed {len(failed)} of {len(result_tests)} tests:"]
    for t in failed[:max_shown]:
        spec = tests[t.index] if 0 <= t.index < len(tests) else {}
        source = spec.get("assert_code") or (
            f"{spec['entry_point']}(*{spec.get('args', [])!r}) == {spec['expected']!r}"
            if "expected" in spec else f"stdin {spec.get('stdin', '')!r}")
        lines.append(f"Test {t.index + 1}: {_short(str(source))}")
        error = " ".join(x for x in (t.error or "", _short(t.message or "", 200)) if x)
        if error:
            lines.append(f"  error: {error}")
        if t.got is not None:
            lines.append(f"  got: {_short(str(t.got), 200)}")
        for name in ("stdout", "stderr"):
            if getattr(t, name, ""):
                lines.append(f"  {name}: {_short(getattr(t, name), 200)}")
    if len(failed) > max_shown:
        lines.append(f"({len(failed) - max_shown} more failing tests not shown)")
    return "\n".join(lines)


class CodeFeedbackEnv(TaskEnvMixin, TextEnv):
    """Write code for a task's problem; failing tests come back as feedback, up to k tries.

    ## Description
    ``reset`` picks a row of a code task (default ``mbpp``: ``row.info["tests"]``, optional
    ``row.info["prefix"]``). Each turn the model writes code (a fenced python block); the
    env runs it against the row's tests in the sandbox of ``verifiers.code``. If every test
    passes, or the attempt was the last (``max_attempts``), the episode ends; otherwise the
    env replies with the failing tests and their output.

    ## Action Space
    ``UnicodeText``: the model's text with the code in a fenced block.

    ## Observation Space
    ``ChatMessages``: the row's prompt after ``reset``; one user message with the failing
    tests after a failing attempt; ``[]`` when the episode ends.

    ## Rewards
    0 until the end; then the task rubric's total for the final attempt times
    ``discount ** (attempts - 1)`` (``discount=1``: no penalty for needing feedback).
    ``info``: ``rubric``, ``reasons``, ``errors``, ``correct``, ``attempts``, ``passed``
    (tests passed by each attempt). A sandbox failure ends the episode with no signal.

    ## Starting State
    A row drawn uniformly from the split with the env's seeded generator;
    ``options={"row": i}`` or ``{"row_id": "..."}`` picks one.

    ## Episode End
    Terminated when all tests pass or after ``max_attempts`` attempts; truncated when the
    conversation exceeds ``max_chars`` characters (reward 0).

    ## Arguments
    ``task`` (default ``"mbpp"``), ``split``, ``task_kwargs``, ``task_seed``, ``limit``,
    ``path`` (as for ``SingleTurnEnv``), ``max_attempts`` (default 3), ``discount`` (default
    1.0), ``timeout`` (seconds per attempt in (0, 3600], default
    ``verifiers.code.DEFAULT_TIMEOUT``),
    ``max_shown`` (failing tests shown, default 3), ``max_chars``, ``render_mode``.
    """

    def __init__(self, task: Any = "mbpp", *, split: str | None = None,
                 task_kwargs: Mapping[str, Any] | None = None, task_seed: int = 0,
                 limit: int | None = DEFAULT_ROW_LIMIT, path: str | None = None,
                 max_attempts: int = 3, discount: float = 1.0, timeout: float | None = None,
                 max_shown: int = 3, max_chars: int = 100_000,
                 render_mode: str | None = None):
        # Checked here, not only when the first attempt runs: a bad value must fail at
        # construction, naming this env's argument (max_attempts, not the base's max_turns).
        max_attempts = check_int("max_attempts", max_attempts, minimum=1)
        discount = check_discount("discount", discount)
        max_shown = check_int("max_shown", max_shown, minimum=1)
        if timeout is not None and (isinstance(timeout, bool)
                                    or not isinstance(timeout, numbers.Real)
                                    or not 0 < timeout <= 3600):
            raise ValueError(f"timeout must be None or seconds in (0, 3600], got {show(timeout)}")
        super().__init__(max_turns=max_attempts, max_chars=max_chars, render_mode=render_mode)
        self._init_task(task, split=split, task_kwargs=task_kwargs, task_seed=task_seed,
                        limit=limit, path=path)
        self.max_attempts, self.discount, self.max_shown = max_attempts, discount, max_shown
        self.timeout = None if timeout is None else float(timeout)
        self.passed: list[int] = []

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        self.row = self._pick_row(options)
        if "tests" not in self.row.info:
            raise ValueError(f"row {self.row.id!r} has no info['tests']: CodeFeedbackEnv needs "
                             "a code task (mbpp, humaneval)")
        self.passed = []
        return row_messages(self.row)

    def _run(self, text: str) -> Any:
        from verifiers.code import DEFAULT_TIMEOUT, code_check

        return code_check(text, list(self.row.info["tests"]),
                          prefix=str(self.row.info.get("prefix", "")),
                          timeout=DEFAULT_TIMEOUT if self.timeout is None else self.timeout)

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        verdict = self._run(text)
        details = dict(verdict.details or {})
        self.passed.append(int(details.get("passed", 0)))
        info: dict[str, Any] = {"row_id": self.row.id, "attempts": self.turn,
                                "passed": list(self.passed)}
        if verdict.reward is None:  # the sandbox failed: not the model's fault
            info.update(no_signal=True, correct=False, reason=str(details.get("why", "")))
            return [], 0.0, True, info
        if verdict.reward >= 1.0 or self.turn >= self.max_attempts:
            # The final attempt gets the task's own rubric (the same reward the single-turn
            # env gives this completion), discounted per extra attempt.
            reward, scored = score_info(self.task.score(self.row, text))
            info.update(scored)
            return [], reward * self.discount ** (self.turn - 1), True, info
        if not details.get("tests"):
            feedback = "I found no code in your reply. Write the function in one ```python block."
        else:
            feedback = describe_failures(details["tests"], list(self.row.info["tests"]),
                                         max_shown=self.max_shown)
        left = self.max_attempts - self.turn
        feedback += f"\nFix the code and reply with the whole function ({left} attempts left)."
        return [{"role": "user", "content": feedback}], 0.0, False, info

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        return 0.0, {"correct": False, "reason": "truncated", "row_id": self.row.id,
                     "attempts": self.turn, "passed": list(self.passed)}
