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

The ``####`` line must hold one clean number: dressing (``$``, ``1,000``, a unit or count noun,
a final period and a sentence after it with no number) is fine; ``#### 5 or 6`` (reason
``hedged``), ``#### 5 + 13 = 18`` or ``#### 1e400`` (reason ``malformed``) score 0 in both
policies, and flexible does not go looking for another number then. A ``####`` line that does
not open with a number ("#### about 18") is no ``####`` answer: flexible falls back. Flexible's
fallbacks refuse a hedge or list ("5 or maybe 6", "6, 7") and an answer a short tail takes back
("6. No wait"), reason ``hedged``.

Numbers are compared as exact rationals (``1,000`` = ``1000`` = ``1000.00``; ``0.5`` = ``1/2``),
in-process: no worker, no sympy. A gold that is not a number raises ``ValueError`` (a dataset
problem, not the completion's fault); a completion without a number scores 0 (``no_answer``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from verifiers.exact_numbers import find_numbers, format_fraction, parse_number
from verifiers.math_extract import (
    end_of_answer_line,
    extract_final_answer,
    is_hedge,
    last_boxed,
    last_number,
    retraction_after,
)
from verifiers.types import CORRECT, HEDGED, MALFORMED, NO_ANSWER, WRONG, Verdict, not_a_string

__all__ = ["POLICIES", "gsm8k_check", "gsm8k_reward", "parse_gsm8k_answer"]

Policy = Literal["flexible", "strict"]
POLICIES: tuple[str, ...] = ("flexible", "strict")
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)")


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


@dataclass(frozen=True)
class _Found:
    """What a policy read from a completion: the answer text, where it came from, and why it
    is no answer when it is not one (``hedged`` / ``malformed``, with the explanation)."""

    text: str | None
    source: str
    problem: tuple[str, str] | None = None


def _after_hashes(completion: str) -> _Found | None:
    """The answer on the last ``####`` line, or None when that line does not open with a number
    ("#### about 18": no ``####`` answer, so flexible looks elsewhere).

    The number must be the whole answer: dressing (``$``, thousands separators, a unit or a
    plural count noun, a final period) is allowed, and a sentence after the period that holds
    no number and takes nothing back. Anything else (``5 or 6``, ``5 + 13 = 18``, ``1e400``,
    ``5. No wait``) is no clean answer: reward 0, in both policies.
    """
    pos = completion.rfind("####")
    if pos < 0:
        return None
    line = completion[pos + 4 : pos + 4 + 400].lstrip("# \t").split("\n", 1)[0]
    line = end_of_answer_line(line)
    numbers = find_numbers(line)
    if not numbers or line[: numbers[0].start].strip(" $\\*"):
        return None
    boundary = _SENTENCE_END_RE.search(line, numbers[0].end)
    head = (line if boundary is None else line[: boundary.start()]).strip().strip("*").strip()
    if parse_number(head) is None:
        if is_hedge(head):
            return _Found(head, "####", (HEDGED, "more than one answer after '####'"))
        return _Found(head, "####", (MALFORMED, "no single number after '####'"))
    if boundary is not None and (
        find_numbers(line[boundary.end() :]) or retraction_after(line, boundary.start())
    ):
        why = "the '####' line goes on after its number"
        return _Found(line.strip(), "####", (HEDGED, why))
    return _Found(head, "####")


def _extract(completion: str, policy: str) -> _Found:
    hashes = _after_hashes(completion)
    if hashes is not None:
        return hashes
    if policy == "strict":
        return _Found(None, "####")
    boxed = last_boxed(completion)
    if boxed is not None:
        # Found again with its end, to see whether the text after it takes it back.
        found = extract_final_answer(completion)
        retraction = found[2] if found is not None and found[1] == "boxed" else None
        return _checked(boxed, "boxed", retraction)
    number = last_number(completion)
    if number is None:
        return _Found(None, "last_number")
    return _checked(number[0], "last_number", retraction_after(completion, number[1]))


def _checked(text: str, source: str, retraction: str | None) -> _Found:
    if is_hedge(text):
        return _Found(text, source, (HEDGED, "more than one answer"))
    if retraction is not None:
        return _Found(f"{text} {retraction}", source, (HEDGED, "the answer is taken back"))
    return _Found(text, source)


def gsm8k_check(completion: str, answer: str, *, policy: Policy = "flexible") -> Verdict:
    """Score a completion against a GSM8K answer (a bare number or a row's ``#### N`` text).

    >>> v = gsm8k_check("Half of 48 is 24, so 48 + 24 = 72.", "#### 72")
    >>> v.reward, v.reason, v.pred, v.gold, v.details["source"]
    (1.0, 'correct', '72', '72', 'last_number')
    >>> gsm8k_check("#### 72 or 73", "72").reason
    'hedged'
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r}")
    gold = _gold_value(answer)
    gold_text = format_fraction(gold)
    if not isinstance(completion, str):
        return not_a_string(completion, gold_text)
    found = _extract(completion, policy)
    details: dict[str, Any] = {"policy": policy, "source": found.source}
    if found.text is None:
        return Verdict(0.0, NO_ANSWER, None, gold_text, details)
    if found.problem is not None:
        reason, why = found.problem
        return Verdict(0.0, reason, found.text, gold_text, {**details, "problem": why})
    pred = parse_number(found.text)
    if pred is None:
        return Verdict(0.0, NO_ANSWER, found.text, gold_text, details)
    pred_norm = format_fraction(pred)
    if pred == gold:
        return Verdict(1.0, CORRECT, pred_norm, gold_text, details)
    return Verdict(0.0, WRONG, pred_norm, gold_text, details)


def gsm8k_reward(completion: str, answer: str, *, policy: Policy = "flexible") -> float:
    """``gsm8k_check(...).reward``: 1.0 or 0.0."""
    return float(gsm8k_check(completion, answer, policy=policy).reward or 0.0)
