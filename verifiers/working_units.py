"""The unit a worked solution gives a number in (issue 30, round 21).

A GSM8K reference writes its final number with its unit before the ``####`` line (``$18``,
``18 cents``), and an answer in another unit is wrong (``#### 18 cents`` for dollars). A
completion's own working does the same: when it last writes the answer's number with a unit
(``Ali now has $21 + $50 = $71.``, ``The height of the cylinder is $5$ cm.``), an answer that
names another unit for that number (``#### 71 cents``, ``\\boxed{5\\text{ meters}}``) states a
different quantity, whatever the gold's unit.

>>> unit_in_working("Ali now has $21 + $50 = $71.", Fraction(71))
'dollar'
>>> unit_in_working(r"The height is $5$ cm.", Fraction(5), latex=True)
'cm'
"""

from __future__ import annotations

import re
from fractions import Fraction

from verifiers.exact_numbers import parse_number
from verifiers.unit_words import CURRENCIES, read_words

__all__ = ["COUNT", "in_is_a_preposition", "same_dimension", "unit_in_working"]

COUNT = "count"  # the number counts things: a unit of measure or money for it is wrong
_NUMBER_RE = re.compile(r"(\$\s*)?(\d[\d,]*(?:\.\d+)?)(?:\s+([A-Za-z]+))?")
_CALCULATOR_RE = re.compile(r"<<[^<>]*>>")
# "$5$" is math, not dollars: a number alone in math reads as the number ("$97$ kg"); in LaTeX
# a math span before a word reads as its content ("$800 - 250 = 550$ gallons") and text wrappers
# as their text ("5\text{ cm}"); "\$5" is a dollar sign, and so is "$71" in prose.
_MATH_NUMBER_RE = re.compile(r"(?<!\\)\$[ \t]*(\d[\d,]*(?:\.\d+)?)[ \t]*(?<!\\)\$")
_MATH_SPAN_BEFORE_WORD_RE = re.compile(r"(?<!\\)\$([^$\n]{1,200}?)(?<!\\)\$(?=[ \t]*[A-Za-z])")
_TEXT_WRAPPER_RE = re.compile(r"\\(?:text|mathrm|textrm|mbox)\s*\{\s*([A-Za-z ]{1,30})\}")
_WINDOW = 4_000  # characters read back: the working near its end
# What each unit measures: two units of one dimension name the same quantity two ways ("5 cm"
# and "5 meters" differ); a number written with a unit of another dimension ("5 minutes")
# is another quantity of the working, not the answer's.
_DIMENSIONS = (
    frozenset({"mm", "cm", "m", "km", "in", "ft", "yd", "mi"}),
    frozenset({"mg", "g", "kg", "lb", "oz", "ton"}),
    frozenset({"ml", "l", "gal", "qt", "pt", "cup"}),
    frozenset({"s", "min", "h", "day", "week", "month", "year"}),
    frozenset({"mph", "km/h", "m/s"}),
    frozenset({"deg", "rad"}),
    frozenset({"kw", "watt"}),
    frozenset({"pa", "kpa"}),
    CURRENCIES,
)


def same_dimension(a: str, b: str) -> bool:
    """Whether the units named ``a`` and ``b`` (``read_words``' canonical names) measure the
    same dimension: ``cm`` and ``m``, ``dollar`` and ``cent``; not ``min`` and ``gal``."""
    return any(a in group and b in group for group in _DIMENSIONS)


def unit_in_working(body: str, value: Fraction, *, latex: bool = False) -> str | None:
    """The unit ``body`` last writes ``value`` with (a unit's canonical name, ``"dollar"`` for
    ``$``, or ``COUNT`` for a count noun such as ``10 guests``), or None."""
    body = _CALCULATOR_RE.sub("", body[-_WINDOW:])
    body = _MATH_NUMBER_RE.sub(r"\1", body)
    if latex:
        body = _TEXT_WRAPPER_RE.sub(r" \1", _MATH_SPAN_BEFORE_WORD_RE.sub(r"\1", body)).replace("\\$", "$")
    unit = None
    for m in _NUMBER_RE.finditer(body):
        if parse_number(m.group(2).replace(",", "")) != value:
            continue
        # The last mention that names a unit: "She made $5 because 20 times .25 equals 5."
        # is in dollars, though its last "5" names none.
        if m.group(1):
            unit = "dollar"
        elif m.group(3) and m.group(3).lower() != "in":  # "18 in total" names no inches
            read = read_words(m.group(3))
            if read is not None:
                # a count noun ("10 guests") is no unit of measure, yet no money either:
                # "#### 10 cents" for it is wrong, "#### 10 people" is compared by its number
                unit = read[1] or (COUNT if m.group(3).lower().endswith("s") else unit)
    return unit


_IN_PHRASE_RE = re.compile(r"[ \t]+in[ \t]+[A-Za-z]")


def in_is_a_preposition(text: str, end: int) -> bool:
    """Whether the "in" after the number that ends at ``end`` opens a phrase ("72 in total",
    "9 in all") rather than naming inches ("72 in.", "72 in")."""
    return _IN_PHRASE_RE.match(text, end) is not None
