"""The rubrics of the built-in tasks: an accuracy function (weight 1) plus a small format
function (weight ``FORMAT_WEIGHT``), ungated.

Why ungated: a gate (``Rubric(..., gate="format")``) zeroes a right answer in the wrong
format, which leaves a small model's early groups all-zero; with a 0.1 format weight a right
answer always earns most of the reward and the format is still learned. Use ``gate="format"``
in your own task when the format is the point (tool calls, structured output).

Rubric functions take ``(completion, answer, **info)`` and receive every field of
``row.info``, so each wrapper here passes on only what its verifier expects.

Every function here runs ``in_process``: the format checks and the GSM8K / countdown checks are
linear-time string work on bounded input, and the math and code verifiers enforce their own
hard deadlines (a worker process, a sandbox), so the rubric's per-call worker round trip would
only add cost.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Any

from verifiers.rubric import RewardFunc, Rubric
from verifiers.types import CORRECT, FORMAT, Verdict

FORMAT_WEIGHT = 0.1

# linear time: after the digits only '.', spaces or the end may follow, so no backtracking
_ANSWER_LINE = re.compile(r"####[ \t]*[-+]?\$?(?:\d[\d,]*(?:\.\d+)?|\.\d+)[ \t]*\.?")
_MAX_ANSWER_LINE = 200
_BOXED = re.compile(r"\\boxed\s*\{")
_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n.*?```", re.DOTALL | re.IGNORECASE)


def _last_line(text: str) -> str:
    return text.strip().rpartition("\n")[2].strip()


def answer_line_format(completion: str, answer: str, **info: Any) -> Verdict:
    """1.0 if the last non-empty line is ``#### N`` (N a number), else 0.0.

    >>> answer_line_format("3+4=7\\n#### 7", "7").reward
    1.0
    >>> answer_line_format("#### 7\\nDone.", "7").reason
    "format: last line is not '#### N': 'Done.'"
    """
    last = _last_line(completion)
    if len(last) <= _MAX_ANSWER_LINE and _ANSWER_LINE.fullmatch(last):
        return Verdict(1.0, CORRECT)
    return Verdict(0.0, f"{FORMAT}: last line is not '#### N': {last[:40]!r}")


def boxed_format(completion: str, answer: str, **info: Any) -> Verdict:
    """1.0 if the completion has a ``\\boxed{...}``."""
    if _BOXED.search(completion):
        return Verdict(1.0, CORRECT)
    return Verdict(0.0, f"{FORMAT}: no \\boxed{{}}")


def code_block_format(completion: str, answer: str, **info: Any) -> Verdict:
    """1.0 if the completion has a fenced Python code block."""
    if _FENCE.search(completion):
        return Verdict(1.0, CORRECT)
    return Verdict(0.0, f"{FORMAT}: no ```python code block")


def gsm8k_accuracy(completion: str, answer: str, **info: Any) -> Verdict:
    from verifiers.gsm8k import gsm8k_check

    # The worked solution, when the row has one, also says the answer's unit ("$18"), so that
    # "#### 18 cents" is not 18 dollars; its '####' number is the row's answer.
    solution = info.get("solution")
    return gsm8k_check(completion, solution if isinstance(solution, str) else answer)


def math_accuracy(completion: str, answer: str, **info: Any) -> Verdict:
    from verifiers.math import math_check

    return math_check(completion, answer)


def code_accuracy(
    completion: str, answer: str, *, partial_credit: bool = False, **info: Any
) -> Verdict:
    """1.0 when every test passes, else 0.0 (``partial_credit``: the fraction passed).

    All-or-nothing by default because a fraction is a reward a policy can farm: a constant
    ``return 0`` passes 2 of 3 asserts on many MBPP rows (``python -m tasks probe mbpp``
    flagged it at 0.67) without solving anything.
    """
    from verifiers.code import code_check

    # the prefix (HumanEval's prompt: imports, helpers, the signature) runs before the code
    prefix = info.get("prefix", "")
    if prefix and not prefix.endswith("\n"):
        prefix += "\n"
    verdict = code_check(
        completion, list(info["tests"]), prefix=prefix, all_or_nothing=not partial_credit
    )
    failed = [t for t in verdict.details.get("tests", ()) if not t.passed]
    if not failed:
        return verdict
    # name the first failing test, so an audit line says why without re-running anything
    first = failed[0]
    why = f"{verdict.reason}: {len(failed)} test(s) failed, first #{first.index} {first.error}"
    if first.message:
        why += f": {first.message[:120]}"
    return dataclasses.replace(verdict, reason=why)


def answer_line_rubric() -> Rubric:
    """Numeric answers on a ``#### N`` line (gsm8k, arithmetic)."""
    return Rubric(
        [
            RewardFunc("accuracy", gsm8k_accuracy, in_process=True),
            RewardFunc("format", answer_line_format, weight=FORMAT_WEIGHT, in_process=True),
        ]
    )


def boxed_rubric() -> Rubric:
    """LaTeX answers in ``\\boxed{}`` (math500)."""
    return Rubric(
        [
            RewardFunc("accuracy", math_accuracy, in_process=True),
            RewardFunc("format", boxed_format, weight=FORMAT_WEIGHT, in_process=True),
        ]
    )


def code_rubric(*, partial_credit: bool = False) -> Rubric:
    """Python in a fenced block, run against ``info["tests"]`` in the sandbox (mbpp,
    humaneval). Accuracy is 1 when every test passes (``partial_credit``: the fraction)."""
    accuracy = functools.partial(code_accuracy, partial_credit=partial_credit)
    return Rubric(
        [
            RewardFunc("accuracy", accuracy, in_process=True),
            RewardFunc("format", code_block_format, weight=FORMAT_WEIGHT, in_process=True),
        ]
    )


def countdown_accuracy(
    completion: str, answer: str, *, use_all: bool = False, **info: Any
) -> Verdict:
    from verifiers.countdown import countdown_check

    return countdown_check(completion, answer, numbers=info["numbers"], use_all=use_all)


def expression_format(completion: str, answer: str, **info: Any) -> Verdict:
    """1.0 if a ``#### <expression>`` line or an ``<answer>`` tag is present."""
    from verifiers.countdown import extract_expression

    if extract_expression(completion) is not None:
        return Verdict(1.0, CORRECT)
    return Verdict(0.0, f"{FORMAT}: no '#### <expression>' line or <answer> tag")


def countdown_rubric(*, use_all: bool = False) -> Rubric:
    """An expression on a ``#### ...`` line (or in ``<answer>`` tags) that reaches the target."""
    return Rubric(
        [
            RewardFunc(
                "accuracy",
                functools.partial(countdown_accuracy, use_all=use_all),
                in_process=True,
            ),
            RewardFunc("format", expression_format, weight=FORMAT_WEIGHT, in_process=True),
        ]
    )
