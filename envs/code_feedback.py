"""Code with feedback: after a failing attempt the env says what failed, from public tests only.

The invariant
-------------
**The feedback never shows the inputs or expected values of a test the reward scores, nor
anything the candidate printed, raised or returned while running one.** A policy that copies
every literal the env ever sent into a lookup table therefore earns nothing it could not earn
from the prompt alone (``tests/test_envs_code.py`` plays that policy). The feedback shows:

- the row's **public tests** (``row.info["public_tests"]``: what the prompt already shows,
  MBPP's example assert and HumanEval's docstring examples), run in a sandbox job of their
  own, so the candidate's output, error messages and values there can depend on public
  inputs only (a job's stdout is shared by its tests, and one process serves them all);
- a **syntax error** in the code, found by compiling it in the env before any test runs;
- for the **scored tests**: how many fail, and the set of failure kinds (``wrong answer``,
  ``timeout``, ``crashed``, or a built-in exception's name; a class the candidate made up is
  ``an exception``), never per test, never a message, a value or output.

A task without public tests gets that last line only. What still flows back is the choice of
failure kinds: a few bits per attempt, far from an answer key.

Example:
    >>> env = CodeFeedbackEnv("mbpp", split="train", max_attempts=3)   # doctest: +SKIP
    >>> prompt, _ = env.reset(seed=0)                                  # doctest: +SKIP
    >>> reply, reward, terminated, truncated, info = env.step("```python\\npass\\n```")  # doctest: +SKIP
    >>> reply[0]["content"].splitlines()[0]                            # doctest: +SKIP
    'Your code failed 3 of 3 tests.'
"""

from __future__ import annotations

import builtins
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from envs.base import TextEnv, check_discount, check_int, show
from envs.single_turn import DEFAULT_ROW_LIMIT, TaskEnvMixin, row_messages, score_info

_EXCERPT = 300
_BUILTIN_ERRORS = frozenset(name for name, value in vars(builtins).items()
                            if isinstance(value, type) and issubclass(value, BaseException))


def _short(text: str, n: int = _EXCERPT) -> str:
    text = text.strip()
    return text if len(text) <= n else text[: n - 3] + "..."


def failure_kind(error: str | None) -> str:
    """The kind of a scored test's failure that the feedback may name: a fixed vocabulary,
    so a candidate cannot spell out a hidden value through the name of an exception class it
    made up (``type(repr(x), (Exception,), {})``).

    Example:
        >>> failure_kind("wrong"), failure_kind("AssertionError"), failure_kind("KeyError")
        ('wrong answer', 'wrong answer', 'KeyError')
        >>> failure_kind("Leak_abcabc_a"), failure_kind("CandidateDied")
        ('an exception', 'crashed')
        >>> failure_kind("load:SyntaxError")
        'SyntaxError'
    """
    if error and error.startswith("load:"):  # raised while the module loaded, before any test
        error = error[len("load:"):]
    if error in (None, "", "wrong", "AssertionError"):
        return "wrong answer"
    if error == "timeout":
        return "timeout"
    if error in _BUILTIN_ERRORS:
        return str(error)
    if error in ("CandidateDied", "judge_failed", "output_limit", "UnsupportedReturn"):
        return "crashed"
    return "an exception"


def describe_hidden(results: Sequence[Any]) -> str:
    """One line about the scored tests the prompt does not show: how many fail and the
    sorted set of failure kinds, nothing per test.

    Example:
        >>> from verifiers.code import TestResult
        >>> describe_hidden([TestResult(1, "assert", False, "KeyError", "'secret'"),
        ...                  TestResult(2, "assert", True)])
        'Tests not shown: 1 of 2 failed (KeyError).'
    """
    failed = [t for t in results if not t.passed]
    kinds = sorted({failure_kind(t.error) for t in failed})
    line = f"Tests not shown: {len(failed)} of {len(results)} failed"
    return f"{line} ({', '.join(kinds)})." if kinds else f"{line}."


def describe_public(results: Sequence[Any], tests: Sequence[Mapping[str, Any]], *,
                    max_shown: int = 3) -> str:
    """The failing public tests (their source, the error, the value and output the code
    produced on them), at most ``max_shown``.

    Only for tests the prompt shows, run in a job of their own: every line here depends on
    public inputs and the candidate's code only.

    Example:
        >>> from verifiers.code import TestResult
        >>> print(describe_public(
        ...     [TestResult(0, "assert", False, "AssertionError", got="4")],
        ...     [{"assert_code": "assert add(2, 2) == 5", "entry_point": "add"}]))
        Example 1 from the problem failed: assert add(2, 2) == 5
          error: AssertionError
          got: 4
    """
    failed = [t for t in results if not t.passed]
    if not failed:
        return "Your code passes the examples from the problem."
    lines = []
    for t in failed[:max_shown]:
        spec = tests[t.index] if 0 <= t.index < len(tests) else {}
        source = spec.get("assert_code") or (
            f"{spec['entry_point']}(*{spec.get('args', [])!r}) == {spec['expected']!r}"
            if "expected" in spec else f"stdin {spec.get('stdin', '')!r}")
        lines.append(f"Example {t.index + 1} from the problem failed: {_short(str(source))}")
        error = " ".join(x for x in (t.error or "", _short(t.message or "", 200)) if x)
        if error:
            lines.append(f"  error: {error}")
        if t.got is not None:
            lines.append(f"  got: {_short(str(t.got), 200)}")
    if len(failed) > max_shown:
        lines.append(f"({len(failed) - max_shown} more failing examples not shown)")
    # stdout/stderr belong to the whole job, so they are shown once, not per test.
    for name in ("stdout", "stderr"):
        text = getattr(failed[0], name, "")
        if text:
            lines.append(f"Your code's {name}: {_short(text, 200)}")
    return "\n".join(lines)


def syntax_error(code: str, prefix: str = "") -> str | None:
    """A line about a syntax error in ``prefix + code`` (line numbers counted in ``code``),
    or ``None`` when it compiles. Compiled here, never run: the message depends on the code
    alone.

    Example:
        >>> syntax_error("def f(:\\n    pass")
        "SyntaxError: invalid syntax (line 1): 'def f(:'"
        >>> syntax_error("x = 1") is None
        True
    """
    try:
        compile(prefix + code, "<candidate>", "exec")
    except SyntaxError as err:
        line = (err.lineno or 0) - prefix.count("\n")
        where = f" (line {line})" if line > 0 else ""
        text = f": {_short(err.text or '', 120)!r}" if err.text and err.text.strip() else ""
        return f"{type(err).__name__}: {err.msg}{where}{text}"
    except (ValueError, RecursionError, MemoryError, OverflowError) as err:
        return f"{type(err).__name__}: the code cannot be compiled"
    return None


class CodeFeedbackEnv(TaskEnvMixin, TextEnv):
    """Write code for a task's problem; what failed comes back as feedback, up to k tries.

    ## Description
    ``reset`` picks a row of a code task (default ``mbpp``: ``row.info["tests"]``, optional
    ``row.info["prefix"]`` and ``row.info["public_tests"]``). Each turn the model writes code
    (a fenced python block); the env runs it against the row's tests in the sandbox of
    ``verifiers.code``. If every test passes, or the attempt was the last
    (``max_attempts``), the episode ends; otherwise the env replies with feedback that
    follows the module's invariant: **it never shows the inputs or expected values of a
    test the reward scores**; only the public tests (what the prompt shows), the code's own
    syntax error, and for the scored tests the number failed and the kinds of failure.

    ## Action Space
    ``UnicodeText``: the model's text with the code in a fenced block.

    ## Observation Space
    ``ChatMessages``: the row's prompt after ``reset``; one user message of feedback after a
    failing attempt; ``[]`` when the episode ends.

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
    ``max_shown`` (failing public tests shown, default 3), ``max_chars``, ``render_mode``.
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

    def _timeout(self) -> float:
        from verifiers.code import DEFAULT_TIMEOUT

        return DEFAULT_TIMEOUT if self.timeout is None else self.timeout

    def _run(self, text: str) -> Any:
        from verifiers.code import code_check

        return code_check(text, list(self.row.info["tests"]),
                          prefix=str(self.row.info.get("prefix", "")), timeout=self._timeout())

    def _public_tests(self) -> list[Mapping[str, Any]]:
        return list(self.row.info.get("public_tests") or ())

    def _feedback(self, text: str, details: Mapping[str, Any]) -> str:
        from verifiers.code import extract_code, run_tests

        scored = list(details["tests"])
        public = self._public_tests()
        failed = sum(not t.passed for t in scored)
        lines = [f"Your code failed {failed} of {len(scored)} tests."]
        prefix = str(self.row.info.get("prefix", ""))
        code = extract_code(text)
        broken = syntax_error(code, prefix)
        if broken is not None:
            lines.append(broken)
        elif public:
            # A job of its own: in the scored job one process serves every test and the
            # output is the job's, so what the code printed or raised there may quote a
            # hidden test's arguments.
            try:
                result = run_tests(prefix + code, public, timeout=self._timeout())
            except ValueError as err:  # the task's public tests are malformed
                lines.append(f"(The examples could not be run: {_short(str(err), 200)})")
            else:
                if result.reward is None:
                    lines.append("(The examples could not be run this time.)")
                else:
                    lines.append(describe_public(result.tests, public, max_shown=self.max_shown))
        shown = [i for i, t in enumerate(self.row.info["tests"]) if t in public]
        hidden = [t for t in scored if t.index not in shown]
        if hidden:
            lines.append(describe_hidden(hidden))
        return "\n".join(lines)

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
            feedback = self._feedback(text, details)
        left = self.max_attempts - self.turn
        feedback += f"\nFix the code and reply with the whole function ({left} attempts left)."
        return [{"role": "user", "content": feedback}], 0.0, False, info

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        return 0.0, {"correct": False, "reason": "truncated", "row_id": self.row.id,
                     "attempts": self.turn, "passed": list(self.passed)}
