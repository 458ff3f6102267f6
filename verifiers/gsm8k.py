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

- ``flexible`` (default): the final answer by the rule shared with the math verifier
  (``verifiers.math_extract.final_answer``): the last commitment (``####`` line, ``\boxed{}``,
  "the answer is ...") wins, so ``Draft: #### 18 ... the correct total is \boxed{17}`` is 17;
  with none, the last number that stands alone.
- ``strict``: the ``####`` line only, and it must be that final answer: a later box or "the
  answer is" scores 0 (reason ``hedged``).

The ``####`` line must hold one amount: dressing (``$``, ``1,000``, ``1 800``, a unit or count
noun, a rate ``per day`` / ``/day``, ``(dollars)``, a final period and a sentence after it
with no number) is fine, and so are number words (``#### eighteen``). ``#### 5 or 6`` (reason
``hedged``), ``#### 5 + 13 = 18`` or ``#### 1e400`` (``malformed``) score 0, and so does
everything the shared rule refuses: an approximation (``#### ~18``, ``#### about 18``,
``#### 18 approx``: reason ``hedged``), a retraction on a later line, a tag-wrapped
alternative (``#### 18 <b>or 19</b>``), a line longer than 400 characters.

Units: when the gold names a unit (``$18``, ``18 dollars``, or a worked solution that writes
``$18`` before its ``#### 18``, as the ``gsm8k`` task passes), an answer in another unit is
wrong (``#### 18 cents``); an answer with no unit is compared by its number.

Numbers are compared as exact rationals (``1,000`` = ``1000`` = ``1000.00``; ``0.5`` = ``1/2``),
in-process: no worker, no sympy. A gold that is not a number raises ``ValueError`` (a dataset
problem, not the completion's fault); a completion without a number scores 0 (``no_answer``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from verifiers.answer_values import mark_trailing_ellipsis
from verifiers.exact_numbers import (
    PERCENT_RE,
    find_numbers,
    format_fraction,
    parse_number,
    parse_quantity,
    percent_equal,
    read_words,
)
from verifiers.math_extract import final_answer, is_hedge
from verifiers.number_words import MAX_NUMBER_WORDS, read_number_words, read_spaced_digits
from verifiers.types import (
    CORRECT,
    HEDGED,
    MALFORMED,
    NO_ANSWER,
    WRONG,
    Accept,
    FinalAnswer,
    Verdict,
    not_a_string,
)
from verifiers.working_units import in_is_a_preposition, same_dimension, unit_in_working

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


def _gold_value(answer: str) -> tuple[Fraction, str | None]:
    """The gold number and its unit when the answer names one (``$18``, ``18 dollars``, or a
    worked solution that writes ``$18`` before its ``#### 18``)."""
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, got {type(answer).__name__}")
    if "####" in answer:
        value = parse_number(parse_gsm8k_answer(answer))
        assert value is not None  # parse_gsm8k_answer refuses a line that is no number
        return value, unit_in_working(answer[: answer.rfind("####")], value)
    quantity = parse_quantity(answer)
    if quantity is None:
        raise ValueError(f"answer is not a number (GSM8K answers are): {answer[:80]!r}")
    return quantity


@dataclass(frozen=True)
class _Found:
    """What a policy read from a completion: the answer text, where it came from, and why it
    is no answer when it is not one (``hedged`` / ``malformed``, with the explanation)."""

    text: str | None
    source: str
    problem: tuple[str, str] | None = None
    alternatives: tuple[str, ...] = ()


# After an amount, a rate or a parenthesised unit is dressing: "18 dollars per day",
# "18 eggs/day", "$18/day", "18 (dollars)". The word after "per" or "/" is a plain word.
_RATE_RE = re.compile(r"(?:\s*/\s*|\s+per\s+|\s+an?\s+|\s+each\s+)(?!cent\b)[A-Za-z]{2,20}$")
_PAREN_WORDS_RE = re.compile(r"\s*\(\s*([A-Za-z][A-Za-z ]{0,30})\s*\)$")
_EACH_RE = re.compile(r"\s+each$", re.IGNORECASE)
# Words for parts of a whole: after an amount they change its value.
_PART_WORD_RE = re.compile(
    r"\b(?:halv(?:es)|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|"
    r"tenths?|elevenths?|twelfths?|(?:hundred|thousand|million)ths?)\b",
    re.IGNORECASE,
)
# "18 total", "18 in all": the amount, said to be the whole.
_TOTAL_RE = re.compile(r"\s+(?:in\s+)?(?:total|all|altogether|overall)$", re.IGNORECASE)
_CURRENCIES = {"\u20ac": "euro", "\u00a3": "pound", "\u00a5": "yen", "\u20b9": "rupee"}
_CURRENCY_RE = re.compile("[" + "".join(_CURRENCIES) + "]")


def read_amount(text: str) -> tuple[Fraction, str | None] | None:
    """``(value, unit)`` of a GSM8K answer: a number with its dressing (``$``, ``1,000``,
    ``1 800``, a unit or count noun, a rate ``per day`` / ``/day``, ``(dollars)``) or one in
    words (``eighteen dollars``); None when it is anything else.

    >>> read_amount("$18/day"), read_amount("eighteen")
    ((Fraction(18, 1), 'dollar'), (Fraction(18, 1), None))
    """
    # "82.658..." trails off: kept as "\ldots", which no amount reads (an integer's "72..." is
    # a pause, and its dots are stripped below)
    text = mark_trailing_ellipsis(text).strip().rstrip(".").strip()
    if _PART_WORD_RE.search(text):
        return None  # "18 twelfths" is 18/12, "18 halves" 9: not the amount 18
    text = _TOTAL_RE.sub("", text)
    currency = _CURRENCY_RE.search(text)
    if currency is not None:  # "€18": a currency sign other than "$" names its unit
        found = parse_quantity(text[: currency.start()] + text[currency.end() :])
        if found is None or found[1] is not None:
            return None
        return found[0], _CURRENCIES[currency.group()]
    m = _PAREN_WORDS_RE.search(text)
    if m is not None:
        text = text[: m.start()] + " " + m.group(1)
    text = _EACH_RE.sub("", text)
    found = parse_quantity(text)
    if found is None:
        rate = _RATE_RE.search(text)
        if rate is not None:
            found = parse_quantity(text[: rate.start()])
    if found is not None:
        return found
    head, _, tail = text.partition(" ")
    spaced = read_spaced_digits(text)
    if spaced is not None:
        return parse_quantity(spaced)
    words = text.replace("$", " ").strip()
    unit = "dollar" if "$" in text else None
    # "eighteen dollars": number words, then at most a unit or count noun.
    parts = words.split()
    # (a longer run is never read as number words: cut at once, not one join per word)
    for cut in range(min(len(parts), MAX_NUMBER_WORDS), 0, -1):
        value = read_number_words(" ".join(parts[:cut]))
        if value is not None:
            rest = " ".join(parts[cut:])
            if not rest:
                return Fraction(value), unit
            dressing = read_words(rest)
            if dressing is None or dressing[0] != 1:
                return None
            if unit is not None and dressing[1] not in (None, unit):
                return None
            return Fraction(value), dressing[1] or unit
    del head, tail
    return None


def _read_line(line: str) -> _Found:
    """The answer on a ``####`` line: one amount, then at most a sentence that holds no number
    (``18. That is all.``); anything else is no clean answer."""
    boundary = _SENTENCE_END_RE.search(line)
    while boundary is not None and read_amount(line[: boundary.start()]) is None:
        boundary = _SENTENCE_END_RE.search(line, boundary.end())
    head = (line if boundary is None else line[: boundary.start()]).strip().strip("*").strip()
    if read_amount(head) is None:
        if is_hedge(head):
            return _Found(head, "####", (HEDGED, "more than one answer after '####'"))
        return _Found(head, "####", (MALFORMED, "no single number after '####'"))
    if boundary is not None and find_numbers(line[boundary.end() :]):
        return _Found(line.strip(), "####", (HEDGED, "the '####' line goes on after its number"))
    return _Found(head, "####")


def _may_pay(gold: Fraction) -> Accept:
    """``final_answer``'s ``accept`` for a flexible check: whether the answer, read as this
    module reads it, is the gold amount (a wrong one needs no further reading)."""

    def accept(answer: str, source: str) -> bool:
        found = _committed(answer, source)
        if found.problem is not None or found.text is None:
            return False
        amount = read_amount(found.text)
        return amount is not None and amount[0] == gold

    return accept


def _committed(answer: str, source: str, alternatives: tuple[str, ...] = ()) -> _Found:
    """The amount's text in the final answer ``final_answer`` read: the number of a ``####``
    line, or the answer itself, refused when it is a hedge."""
    if source == "####":
        line = _read_line(answer)
        return _Found(line.text, line.source, line.problem, alternatives)
    if is_hedge(answer):
        return _Found(answer, source, (HEDGED, "more than one answer"))
    return _Found(answer, source, None, alternatives)


def _extract(completion: str, policy: str, accept: Accept | None = None) -> _Found:
    final = final_answer(completion, accept=None if policy == "strict" else accept)
    if policy == "strict" and final.source != "####":
        if "####" not in completion or final.source == "none":
            return _Found(None, "####")
        return _strict_hashes(completion, final)
    if final.problem is not None:
        return _Found(final.answer, final.source, final.problem)
    if final.answer is None:
        return _Found(None, final.source)
    return _committed(final.answer, final.source, (*final.alternatives, *final.standing))


def _strict_hashes(completion: str, final: FinalAnswer) -> _Found:
    """Strict policy when a later answer follows the last '####' line: the line counts only
    if that later answer says the same amount ("#### 18" then "The answer is 18.")."""
    later = _Found(final.answer, final.source, (HEDGED, "another answer after the '####' line"))
    if final.problem is not None or final.answer is None:
        return later if final.problem is None else _Found(final.answer, final.source, final.problem)
    pos = completion.rfind("####")
    line_end = completion.find("\n", pos)
    hashes = final_answer(completion[: len(completion) if line_end < 0 else line_end])
    if hashes.source != "####" or hashes.problem is not None or hashes.answer is None:
        return later
    line = _read_line(hashes.answer)
    if line.problem is not None or line.text is None:
        return line
    mine, theirs = read_amount(line.text), read_amount(final.answer)
    if mine is None or theirs is None or mine[0] != theirs[0]:
        return later
    return line


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
    gold, gold_unit = _gold_value(answer)
    gold_text = format_fraction(gold)
    if not isinstance(completion, str):
        return not_a_string(completion, gold_text)
    found = _extract(completion, policy, _may_pay(gold))
    details: dict[str, Any] = {"policy": policy, "source": found.source}
    if found.problem is not None:
        reason, why = found.problem
        return Verdict(0.0, reason, found.text, gold_text, {**details, "problem": why})
    if found.text is None:
        return Verdict(0.0, NO_ANSWER, None, gold_text, details)
    amount = read_amount(found.text)
    if amount is None:
        return Verdict(0.0, NO_ANSWER, found.text, gold_text, details)
    pred, unit = amount
    pred_norm = format_fraction(pred)
    if unit is not None and gold_unit is not None and unit != gold_unit:
        details["units"] = (gold_unit, unit)
        return Verdict(0.0, WRONG, f"{pred_norm} {unit}", gold_text, details)
    number = _LEADING_NUMBER_RE.search(found.text)
    at = completion.rfind(number.group()) if number is not None else -1  # (the answer's own number stands last)
    if unit is None and at > 0:  # "\boxed{720} cents", "1 cents": the unit after the box or the last number
        after = _UNIT_AFTER_RE.match(completion, at + len(number.group()))  # type: ignore[union-attr]
        read = None if after is None or after.group(1).lower() == "in" else read_words(after.group(1))  # ("72 in all")
        unit = None if read is None else read[1]
    if unit == "in" and at > 0 and in_is_a_preposition(completion, at + len(number.group())):  # type: ignore[union-attr]
        unit = None  # "72 in total": a preposition, no inches
    work_unit = unit_in_working(completion[:at], pred, latex=True) if unit is not None and at > 0 else None
    if work_unit is not None and work_unit != unit and same_dimension(work_unit, unit):
        # ("Ali now has $71.\n#### 71 cents": the working's own number, in another unit)
        why = f"the working gives {pred_norm} in {work_unit}, the answer in {unit}"
        details["units"] = (work_unit, unit)
        return Verdict(0.0, WRONG, f"{pred_norm} {unit}", gold_text, {**details, "problem": why})
    equal = pred == gold
    if PERCENT_RE.search(found.text):  # "#### 25%" for 25; never "#### 0.25%" for 0.25
        equal = percent_equal(pred, gold, gold_plain=True)
    for alternative in found.alternatives if equal else ():
        # "18, or \boxed{18}": one answer written twice only if both are right.
        other = read_amount(alternative)
        boxed = _BOX_ONLY_RE.fullmatch(alternative.strip(" \t$"))
        if other is None and boxed is not None:
            other = read_amount(boxed.group(1))  # ("\boxed{560}" then "The final answer is $560$.")
        if other is None or other[0] != pred:
            why = f"another answer offered just before it: {alternative[:40]!r}"
            return Verdict(0.0, HEDGED, pred_norm, gold_text, {**details, "problem": why})
    if equal:
        return Verdict(1.0, CORRECT, pred_norm, gold_text, details)
    return Verdict(0.0, WRONG, pred_norm, gold_text, details)


_LEADING_NUMBER_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
_UNIT_AFTER_RE = re.compile(r"(?:[ \t]|\}|\$|\*\*)*(?:\\text\{[ \t]*)?([A-Za-z]+)")
_BOX_ONLY_RE = re.compile(r"\\(?:boxed|fbox)\{([^{}]{1,60})\}")


def gsm8k_reward(completion: str, answer: str, *, policy: Policy = "flexible") -> float:
    """``gsm8k_check(...).reward``: 1.0 or 0.0."""
    return float(gsm8k_check(completion, answer, policy=policy).reward or 0.0)
