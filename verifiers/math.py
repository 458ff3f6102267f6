r"""Math answers: extract the final answer from a completion and compare it with the gold.

>>> from verifiers.math import math_reward, math_check
>>> math_reward(r"... so the answer is $\boxed{\frac{1}{2}}$.", answer="0.5")
1.0
>>> math_reward("so the answer is 25", answer="0.25")       # 0.25 is not 25
0.0
>>> math_check(r"We get $\boxed{2\sqrt{2}}$", answer=r"\sqrt{8}").details["path"]
'numeric'
>>> v = math_check(r"It factors as $\boxed{(x-1)(x+1)}$", answer="x^2-1")
>>> v.reward, v.reason, v.pred, v.details["path"]
(1.0, 'correct', '(x-1)(x+1)', 'symbolic')

The final answer is read by the allow-list grammar shared with GSM8K and countdown
(``verifiers.math_extract``, after the one normalisation pass of ``verifiers.answer_text``):
the last commitment (the outermost ``\boxed{}``, an ``<answer>`` tag, a ``####`` line, "the
answer is ...") wins by position, every commitment in its paragraph must agree with it, and
only an allow-listed tail may follow it (no other value); without one, only a closing form
(``... = X``, X alone on its line, one value not denied or bounded). Anything else scores 0
with the reason. Stages run once each, in order: ``details["source"]`` says where the answer
was read, ``details["problem"]`` why the reading refused it, ``details["path"]`` how it was
compared. ``x = 3\sqrt{13}`` states the value ``3\sqrt{13}`` when the gold is a bare value.
Several commitments against a gold with several values are compared as one list (a set of
solutions); against a single value, each must equal it. All comparisons of one completion
share one deadline. The committed value is compared as soon as it is read: a wrong one
scores 0, reason ``wrong``, without the rest of the reading (``final_answer``'s ``accept``).

The gold is read as a LaTeX answer, never mined for a last number: ``2\sqrt{2}`` is never 2. A
gold containing ``\boxed{}`` or ``####`` is reduced to that part first.

Comparison, cheapest first:

1. ``exact``: both sides are plain numbers (integers, decimals, thousands separators,
   fractions, mixed numbers, ``$``/``\%``/known units stripped) -> compared as exact rationals,
   in this process. No tolerance: 123450 is not 123456, 0.25 is not 25. A unit counts only when
   both sides name one: ``5 m`` is not ``5 cm``, but ``5`` is ``5 cm``.
2. ``string``: the normalised strings are identical (also settles text answers).
3. ``guard``: answers that would make sympy run away (longer than ``MAX_ANSWER_CHARS``, power
   towers, exponents or factorials beyond ``MAX_EXPONENT``) are refused up front with reward 0
   and reason ``timeout``.
4. ``numeric``: both sides are constant expressions (``2\sqrt{2}``, ``\frac{\pi}{3}``,
   ``2^{-99}``, ``6 - 5i``) -> compared exactly when both are rational (``10^{100}+1`` is not
   ``10^{100}``), else evaluated with mpmath in this process at a precision that covers their
   longest numeral and the spread of magnitudes they pass through, and required to agree to 50
   relative digits beyond that (``verifiers.latex_numeric``; the symbolic path applies the same
   rule to constants).
5. ``symbolic``: ``verifiers.latex_equiv.symbolic_equiv`` (latex2sympy + exact/high-precision
   sympy comparison, math-verify as the fallback parser) inside a killable worker process
   with a hard deadline (``verifiers.deadline``); when it passes: reward 0, reason ``timeout``.

Before any of these, a hedged prediction scores 0 with reason ``hedged``: alternatives ("3 or
4", "3 \text{ or } 4", "5 \vee 6"), a list ("6, 7") against a gold that is a single value
(no comma, no ``\pm``), or an answer that a short tail takes back ("5. No wait", "5?"). After
the ``string`` path, a prediction holding a token no final answer holds unless the gold does
(``\neq``, ``\to``, ``\approx``, ``\ldots``, ``\phantom``, ``?``, a prime ``'``, ``\text{}`` that is neither
a unit nor the gold's text) scores 0 with reason ``malformed``: sympy's parsers would drop the
token and read the number beside it. A numeral with a base subscript (``101_2``) is compared
digit by digit with a gold in the same base and never equals a plain gold (``101`` is not
``101_2``, the other way round is accepted: the question names the base); bare lists must have
as many items as the gold (``1, 2, 2`` is not ``1, 2``).

Answer forms read before the paths above (``verifiers.math_forms``, issue 22):

- symbols keep their case and digits set apart stay apart: ``\Pi`` is not ``\pi``, ``3r^2``
  is not ``3R^2``, ``2\quad 5`` is not 25 (``1\,000`` is 1000: a thousands separator); word
  answers compare without case (``\text{Monday}``, ``monday``).
- a multiple-choice gold (``C``, ``(C)``, ``\text{(C)}``, ``\textbf{(C)}``) takes only a choice
  of the same letter, however marked: ``C^1`` and ``c`` are no choices.
- ``x = 10,\!080`` and ``(x, y) = (-1, 3)`` state a value: against a gold without ``=`` the
  value after one leading variable is compared (and the other way round).
- a chain of equalities (``\frac{1}{8} = 0.125``, ``x = 5 + 22 = 27``) against a gold without
  ``=`` is equal only when every side is (``math_forms.equality_chain``; path ``chain``).
- where the gold holds several values (a comma list or ``\pm``), ``x=1 \text{ or } x=-2`` is
  the solution set ``1, -2``; against a single-value gold the same "or" stays a hedge (0).
- Unicode math (``2√2``, ``½``, ``π``, ``x²``, ``≥``) is read as its LaTeX; repeating decimals
  (``0.1\overline{6}``) are exact fractions.
- an exact answer followed by its rounded value (``\frac{\sqrt{3}}{3} \approx 0.577``) is the
  exact answer when the decimal is its value rounded at the last digit shown; any other
  ``\approx`` is a stray token.
- a decimal is the exact number it spells: never a printout of a gold it only approaches
  (``0.0833333333333333`` is not ``\frac{1}{12}``, ``3.14159265358979`` not ``\pi``; issue
  30: exact values compare exactly, and a finite decimal is exact).
- a number beside a fraction of digits is a mixed number only when the whole answer is one
  (``3\frac{1}{2}`` is 7/2: a whole number of 1 or more, a proper fraction); any other
  (``5 \frac{2}{2}``, ``\frac{1}{2} 3``, ``3\frac{1}{2}+1``) is two values, reason
  ``malformed``: the parsers would read a product (``math_forms.numerals_side_by_side``).
  A character outside ASCII that ``math_forms.latex_from_unicode`` does not read (``16 ≈ 1000``
  reads ``\approx``) is a stray token; Greek letters but ``\pi`` are free symbols.
- issue 30: an ordered tuple is compared in order and is never a set (``(2,1)`` is not
  ``\{1,2\}``, nor ``(1,2)``); a percent gold also takes the fraction (``0.5`` for ``50\%``),
  and a percent answer has one reading per gold (``exact_numbers.percent_equal``: ``40\%`` for
  ``\frac{2}{5}``, ``25\%`` for ``25``; never ``0.75\%`` for ``\frac34``);
  a condition on one variable is the set it describes (``(5,\infty)`` for ``x > 5``, never
  for ``x \geq 5``); a labelled gold is its value (``7:32`` for ``S_{MBCN}:S=7:32``, ``4, 5``
  in that order for ``AB=4, CD=5``); ``\varnothing`` is ``\emptyset``; ``\mathbb{R} \setminus
  \{0\}`` is the union of intervals it equals; several values joined by ", " pay for a gold
  that is a set or list with the same members, in any order, and never for a single value.
  Every sympy call one comparison makes shares one deadline, and a power of a sum whose
  expansion would run away (``(a+b+c+d+e)^{9999}``) is refused up front (reason ``timeout``).
- the symbolic path compares relations up to a positive factor and side swap (``x \geq 5`` is
  ``5 \leq x``, ``-x > -1`` is ``x < 1``) and equations up to a nonzero factor (``2y = 4x + 6``
  is ``y = 2x + 3``); see ``verifiers.latex_equiv``.

Time: a prediction over ``MAX_ANSWER_CHARS`` is refused before any in-process step; the numeric
path evaluates no power whose exponent exceeds ``MAX_EXPONENT`` (by value, at any brace depth),
and the guard (``verifiers.latex_guard``) keeps towers, huge exponents and factorials from sympy.
"""

from __future__ import annotations

import re
import time
from fractions import Fraction
from typing import Any

from verifiers.exact_numbers import (
    format_fraction,
    parse_number,
)
from verifiers.latex_guard import MAX_EXPONENT
from verifiers.math_compare import (
    DEFAULT_TIMEOUT,
    MAX_ANSWER_CHARS,
    _assigned_value,
    _check_timeout,
    _compare,
    _several_values,
    is_equiv,
    normalize_gold,
)
from verifiers.math_extract import extract_answer, final_answer
from verifiers.math_screens import (
    _units,
    collective_for_count,
    gold_count_noun,
    names_unit,
    sign_mismatch,
)
from verifiers.types import (
    HEDGED,
    NO_ANSWER,
    TIMEOUT,
    WRONG,
    Verdict,
    not_a_string,
)
from verifiers.unit_words import read_words
from verifiers.working_units import in_is_a_preposition, same_dimension, unit_in_working

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_ANSWER_CHARS",
    "MAX_EXPONENT",
    "extract_answer",
    "is_equiv",
    "math_check",
    "math_reward",
    "normalize_gold",
]


def math_check(completion: str, answer: str, *, timeout: float = DEFAULT_TIMEOUT) -> Verdict:
    r"""Extract the final answer from ``completion`` and compare it with ``answer``.

    ``reward`` is 1.0 or 0.0, or None (reason ``no_signal``) when the worker infrastructure
    failed; ``details`` records the extraction rule (``source``) and the comparison ``path``.

    >>> math_check(r"\boxed{10^{10^{10^{10}}}}", answer="1").reason
    'timeout'
    """
    timeout = _check_timeout(timeout)
    gold = normalize_gold(answer)
    if not isinstance(completion, str):
        return not_a_string(completion, gold)
    several = _several_values(gold)
    value: list[Fraction] = []  # the prediction's exact value, when the exact path decides
    compared: dict[str, Any] = {}

    def accept(answer: str, source: str) -> bool:
        # Compared as soon as it is read: a wrong value needs no further reading (a gold of
        # several values is compared against every commitment together, after the reading;
        # an answer the comparator cannot read is read on, for the reading's reason).
        compared["deadline"] = time.monotonic() + timeout  # one deadline for every comparison
        compared["pred"] = pred = _assigned_value(answer, gold)
        compared["result"] = _compare(gold, pred, timeout, value)
        return not (compared["result"][0] is False and compared["result"][1] == WRONG)

    found = final_answer(completion, accept=None if several else accept)
    if found.problem is not None:
        reason, why = found.problem
        details = {"source": found.source, "path": "hedge", "problem": why}
        return Verdict(0.0, reason, found.answer, gold, details)
    if found.answer is None:
        return Verdict(0.0, NO_ANSWER, None, gold, {"source": None})
    pred, source = _assigned_value(found.answer, gold), found.source
    if found.unit is not None and (names_unit(gold) or found.unit == "\\%"):  # (50% is 1/2)
        pred = f"{pred}{found.unit}" if found.unit == "\\%" else f"{pred} {found.unit}"  # "36 kg", "50\\%"
    # the words after the value's last occurrence, a "####" line's too (found.end counts in the
    # text the reader saw, without its reasoning block)
    at = completion.rfind(found.answer) if gold_count_noun(gold) is not None else -1  # (a bare gold: no scan)
    collective = collective_for_count(gold, completion[at : at + 160]) if at >= 0 else None
    if collective is not None:  # "#### 248 dozen eggs" for 248 eggs
        why = f"the answer counts collections of the gold's items: {collective!r}"
        return Verdict(0.0, WRONG, pred, gold, {"source": source, "path": "unit", "problem": why})
    unit_problem = None if found.rejected or not any(c.isalpha() for c in found.answer) or names_unit(gold) else (
        _unit_against_working(completion, found.answer))
    if unit_problem is not None:  # "The height is $5$ cm." then "\boxed{5\text{ meters}}"
        return Verdict(0.0, WRONG, pred, gold, {"source": source, "path": "unit", "problem": unit_problem})
    if found.unit is not None and names_unit(gold) and sign_mismatch(gold, found.unit):
        why = f"the unit after the box is not the gold's: {found.unit!r}"  # "\boxed{23} bps" for 23%
        return Verdict(0.0, WRONG, pred, gold, {"source": source, "path": "unit", "problem": why})
    alternatives = found.alternatives
    if alternatives and several:
        # Several commitments spell out a set of solutions: the gold must equal the whole list.
        pred = ", ".join(_assigned_value(a, gold) for a in (*alternatives, found.answer))
        alternatives = ()
    if compared.get("pred") == pred:  # compared while it was read
        deadline = compared["deadline"]
        equal, reason, details = compared["result"]
    else:
        deadline = time.monotonic() + timeout
        value.clear()
        equal, reason, details = _compare(gold, pred, timeout, value)
    details = {"source": source, **details}
    # Each other value offered must be right too, one by one: "1\frac{1}{4}, or \boxed{1.25}"
    # is one answer written twice; an earlier paragraph's answer stands whatever follows it.
    others = [(a, "another answer offered just before it") for a in alternatives]
    others += [(a, "an earlier paragraph's answer still stands") for a in found.standing]
    for other, said in others if equal else ():
        left = deadline - time.monotonic()
        if left <= 0:
            why = f"no time left to compare the other answers (timeout {timeout} s)"
            return Verdict(0.0, TIMEOUT, pred, gold, {**details, "path": "hedge", "problem": why})
        if not _compare(gold, _assigned_value(other, gold), left)[0]:
            why = f"{said}: {other[:40]!r}"
            return Verdict(0.0, HEDGED, pred, gold, {**details, "path": "hedge", "problem": why})
    if equal is None:
        return Verdict(None, reason, pred, gold, details)
    p_num = None
    if details["path"] == "exact":
        # Empty when an item of a list decided (a labelled gold): the list is read whole.
        p_num = value[0] if value else parse_number(pred)
    shown = format_fraction(p_num) if p_num is not None else pred
    return Verdict(1.0 if equal else 0.0, reason, shown, gold, details)


_LEADING_NUMBER_RE = re.compile(r"[ \t]*(-?\d[\d,]*(?:\.\d+)?)")


def _unit_against_working(completion: str, answer: str) -> str | None:
    """Why the unit in the answer (``5\\text{ meters}``) is not the one the working last gives
    its number in (``The height is $5$ cm.``), or None (``verifiers.working_units``)."""
    units = _units(answer)
    number = _LEADING_NUMBER_RE.match(answer)
    if len(units) != 1 or number is None or read_words(units[0]) != (1, units[0]):
        return None  # (a count noun, a power of a unit, several units: compared as before)
    at = completion.rfind(number.group(1))  # (the answer's own number: it stands last)
    value = parse_number(number.group(1).replace(",", ""))
    if at <= 0 or value is None or (units[0] == "in" and in_is_a_preposition(completion, at + len(number.group(1)))):
        return None  # ("72 in total": a preposition, no inches)
    work_unit = unit_in_working(completion[:at], value, latex=True)
    if work_unit is None or not same_dimension(work_unit, units[0]) or work_unit == units[0]:
        return None  # ("5 minutes" then "\boxed{5\text{ gallons}}": another quantity of the working)
    return f"the working gives {number.group(1)} in {work_unit}, the answer in {units[0]}"


def math_reward(completion: str, answer: str, *, timeout: float = DEFAULT_TIMEOUT) -> float:
    """``math_check(...).reward`` as a float (0.0 when there is no signal)."""
    return float(math_check(completion, answer, timeout=timeout).reward or 0.0)
