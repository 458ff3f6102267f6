r"""GSM8K: the ``#### N`` convention, exact numeric comparison, named extraction policies.

>>> from verifiers.gsm8k import gsm8k_reward, parse_gsm8k_answer
>>> parse_gsm8k_answer("48/2 = <<48/2=24>>24 clips in May.\n#### 1,000")
'1000'
>>> gsm8k_reward("She pays 3 * 6 = 18 dollars, so #### 18", "#### 18")
1.0
>>> gsm8k_reward("The total is $\\boxed{18}$.", "18")          # flexible: boxed
1.0
>>> gsm8k_reward("The total is $\\boxed{18}$.", "18", policy="strict")  # strict: '####' only
0.0

Policies (how the completion's answer is found):

- ``strict``: the number after the last ``####``; nothing else counts.
- ``flexible`` (default): ``####``, else the last ``\boxed{}``, else the last number.

Numbers are compared as exact rationals (``1,000`` = ``1000`` = ``1000.00``; ``0.5`` = ``1/2``),
in-process: no worker, no sympy. A gold that is not a number raises ``ValueError`` (a dataset
problem, not the completion's fault); a completion without a number scores 0 (``no_answer``).
"""

from __future__ import annotations

from typing import Literal

from verifiers.exact_numbers import find_numbers, format_fraction, parse_number
from verifiers.math_extract import last_boxed
from verifiers.types import CORRECT, NO_ANSWER, WRONG, Verdict, not_a_string

__all__ = ["POLICIES", "gsm8k_check", "gsm8k_reward", "parse_gsm8k_answer"]

Policy = Literal["flexible", "strict"]
POLICIES: tuple[str, ...] = ("flexible", "strict")


def parse_gsm8k_answer(row_answer: str) -> str:
    """The final answer of a GSM8K dataset row (the number after the last ``####``), normalised.

    Thousands separators are removed and the number is written canonically.

    >>> parse_gsm8k_answer("... so 5 + 3 = <<5+3=8>>8\\n#### 8")
    '8'
    >>> parse_gsm8k_answer("#### -1,250")
    '-1250'
    """
    if not isinstance(row_answer, str):
        raise TypeError(f"row_answer must be a str, got {type(row_answer).__name__}")
    pos = row_answer.rfind("####")
    if pos < 0:
        raise ValueError(f"row_answer has no '#### N' line: {row_answer[-80:]!r}")
    tail = row_answer[pos + 4 :].strip().split("\n", 1)[0]
    value = parse_number(tail)
    if value is None:
        raise ValueError(f"row_answer's '####' line is not a number: {tail[:80]!r}")
    return format_fraction(value)


def _gold_value(answer: str):
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, got {type(answer).__name__}")
    if "####" in answer:
        return parse_number(parse_gsm8k_answer(answer))
    value = parse_number(answer)
    if value is None:
        raise ValueError(f"answer is not a number (GSM8K answers are): {answer[:80]!r}")
    return value


def _after_hashes(completion: str) -> str | None:
    pos = completion.rfind("####")
    if pos < 0:
        return None
    line = completion[pos + 4 : pos + 4 + 400].lstrip("# \t").split("\n", 1)[0]
    # Only a number that opens the line: "#### $18 dollars." is 18, "#### about 18" is nothing.
    numbers = find_numbers(line)
    if numbers and not line[: numbers[0].start].strip(" $\\*"):
        return numbers[0].text
    return None


def _extract(completion: str, policy: str) -> tuple[str | None, str]:
    hashes = _after_hashes(completion)
    if hashes is not None or policy == "strict":
        return hashes, "####"
    boxed = last_boxed(completion)
    if boxed is not None:
        return boxed, "boxed"
    numbers = find_numbers(completion)
    return (numbers[-1].text, "last_number") if numbers else (None, "last_number")


def gsm8k_check(completion: str, answer: str, *, policy: Policy = "flexible") -> Verdict:
    """Score a completion against a GSM8K answer (a bare number or a row's ``#### N`` text).

    >>> v = gsm8k_check("Half of 48 is 24, so 48 + 24 = 72.", "#### 72")
    >>> v.reward, v.reason, v.pred, v.gold, v.details["source"]
    (1.0, 'correct', '72', '72', 'last_number')
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    gold = _gold_value(answer)
    gold_text = format_fraction(gold)
    if not isinstance(completion, str):
        return not_a_string(completion, gold_text)
    pred_text, source = _extract(completion, policy)
    details = {"policy": policy, "source": source}
    if pred_text is None:
        return Verdict(0.0, NO_ANSWER, None, gold_text, details)
    pred = parse_number(pred_text)
    if pred is None:
        return Verdict(0.0, NO_ANSWER, pred_text, gold_text, details)
    pred_norm = format_fraction(pred)
    if pred == gold:
        return Verdict(1.0, CORRECT, pred_norm, gold_text, details)
    return Verdict(0.0, WRONG, pred_norm, gold_text, details)


def gsm8k_reward(completion: str, answer: str, *, policy: Policy = "flexible") -> float:
    """``gsm8k_check(...).reward``: 1.0 or 0.0."""
    return float(gsm8k_check(completion, answer, policy=policy).reward or 0.0)
