"""Exact parsing of plain numeric answers, the fast path of the math and GSM8K verifiers.

``parse_number`` reads a whole string as one exact rational (``fractions.Fraction``) or returns
``None``; it never guesses. A string that holds anything beyond a number with the usual dressing
(``$``, ``\\%``, degrees, a unit in ``\\text{}``, a sentence-final period) is not a number here,
so ``2\\sqrt{2}`` is ``None`` (and goes to the symbolic path), never 2.

>>> parse_number("1,000")
Fraction(1000, 1)
>>> parse_number(r"\\$1{,}234.50.")
Fraction(2469, 2)
>>> parse_number(r"-\\dfrac{3}{4}")
Fraction(-3, 4)
>>> parse_number(r"3\\frac{1}{2}")       # mixed number
Fraction(7, 2)
>>> parse_number(r"12\\text{ cm}^2") is None   # a unit with an exponent is not dressing we know
True
>>> parse_number(r"2\\sqrt{2}") is None
True

``find_numbers`` lists the numbers in free text (linear time; used for "last number" fallbacks):

>>> [m.text for m in find_numbers("She paid $1,250.50 for 3 items.")]
['1,250.50', '3']

Every regular expression here runs in linear time: no nested quantifiers over the same
characters, and inputs longer than ``MAX_NUMBER_CHARS`` are refused before any regex runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MAX_NUMBER_CHARS", "NumberMatch", "find_numbers", "format_fraction", "parse_number"]

# Longer strings are not "plain numbers" worth the fast path (and int() refuses > 4300 digits).
MAX_NUMBER_CHARS = 400

_INT = r"(?:\d{1,3}(?:,\d{3})+|\d+)"  # 1,234,567 or 1234567 (commas only in groups of three)
_DEC = rf"(?:{_INT}(?:\.\d+)?|\.\d+)"
_SIGN = r"[-+\u2212]?"
_NUMBER_RE = re.compile(rf"({_SIGN})\s*({_DEC})")
_PLAIN_RE = re.compile(rf"({_SIGN})({_DEC})")
_SLASH_RE = re.compile(rf"({_SIGN})({_INT})/({_INT})")
_MIXED_SLASH_RE = re.compile(rf"({_SIGN})({_INT})\s+({_INT})/({_INT})")
# \frac{a}{b}, \frac12, \frac{-1}{2}; \dfrac and \tfrac are rewritten to \frac first.
_FRAC_RE = re.compile(
    rf"({_SIGN})({_INT})?\s*\\frac(?:\{{\s*([-+]?)\s*({_INT})\s*\}}|(\d))(?:\{{\s*({_INT})\s*\}}|(\d))"
)

# Dressing removed before parsing; each pattern is anchored or literal (linear time).
_TEXT_UNIT_RE = re.compile(r"\\(?:text|mbox|mathrm|textbf|textrm)\{\s*([^{}]*)\}")
_TRAILING_WORDS_RE = re.compile(r"(?<=[\d}.])\s+[A-Za-z][A-Za-z ]{0,40}$")
_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\circ|°|\\degree")
_SPACES_RE = re.compile(r"\\[,!;: ]|~|\\quad|\\qquad")


def _to_int(s: str) -> int:
    return int(s.replace(",", ""))


def _strip_dressing(s: str) -> str:
    s = s.strip()
    # Sentence-final punctuation and surrounding math delimiters.
    s = s.rstrip(" .;,\n\t")
    if s.startswith("$") and s.endswith("$") and len(s) >= 2:
        s = s.strip("$").strip()
    s = re.sub(r",\\!\s*", ",", s)  # MATH writes 11,\! 111 for 11,111
    s = s.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac").replace("\u2212", "-")
    s = s.replace("{,}", ",").replace("\\,", ",") if re.search(r"\d(?:\{,\}|\\,)\d{3}", s) else s
    s = _SPACES_RE.sub(" ", s)
    s = s.replace("\\left", "").replace("\\right", "")
    s = s.replace("\\$", "").replace("$", "").replace("\\%", "").replace("%", "")
    s = _DEGREE_RE.sub("", s)
    # A unit in \text{...} is dressing only when it is all letters (and not "or": a hedge).
    s = _TEXT_UNIT_RE.sub(lambda m: " " if _is_unit(m.group(1)) else m.group(1), s)
    s = s.strip()
    m = _TRAILING_WORDS_RE.search(s)
    if m and _is_unit(m.group(0)):
        s = s[: m.start()]
    s = s.strip().rstrip(" .,")
    while len(s) >= 2 and s[0] == "{" and s[-1] == "}":
        s = s[1:-1].strip()
    return s


_NOT_UNITS = {"or", "and", "to", "and/or", "plus", "minus", "times", "over", "divided"}


def _is_unit(text: str) -> bool:
    words = text.strip().lower().split()
    return bool(words) and all(w.isalpha() and w not in _NOT_UNITS for w in words)


def parse_number(text: str) -> Fraction | None:
    """The exact value of ``text`` if the whole string is one number, else ``None``.

    Understands integers with or without thousands separators (``1,000``, ``1\\,000``,
    ``1{,}000``), decimals, signs (also U+2212), ``a/b``, ``\\frac``/``\\dfrac``/``\\tfrac``,
    mixed numbers (``3 1/2``, ``3\\frac{1}{2}``), and strips ``$``, ``\\%``, degrees, a
    sentence-final period and trailing units (``5 cm``, ``5\\text{ cm}``).

    >>> parse_number("0.25"), parse_number("25\\\\%")
    (Fraction(1, 4), Fraction(25, 1))
    >>> parse_number("3 or 4") is None
    True
    """
    if not isinstance(text, str) or len(text) > MAX_NUMBER_CHARS:
        return None
    s = _strip_dressing(text)
    if not s or len(s) > MAX_NUMBER_CHARS:
        return None
    try:
        if m := _PLAIN_RE.fullmatch(s):
            value = Fraction(m.group(2).replace(",", ""))
            return -value if m.group(1) in ("-", "\u2212") else value
        if m := _SLASH_RE.fullmatch(s):
            den = _to_int(m.group(3))
            if den == 0:
                return None
            value = Fraction(_to_int(m.group(2)), den)
            return -value if m.group(1) == "-" else value
        if m := _MIXED_SLASH_RE.fullmatch(s):
            return _mixed(m.group(1), m.group(2), "", m.group(3), m.group(4))
        if m := _FRAC_RE.fullmatch(s):
            sign, whole, inner_sign, num_b, num_d, den_b, den_d = m.groups()
            return _mixed(sign, whole, inner_sign, num_b or num_d, den_b or den_d)
    except (ValueError, ZeroDivisionError):
        return None
    return None


def _mixed(sign: str, whole: str | None, inner_sign: str, num: str, den: str) -> Fraction | None:
    d = _to_int(den)
    if d == 0:
        return None
    frac = Fraction(_to_int(num), d)
    if inner_sign == "-":
        if whole:  # 3\frac{-1}{2} is not a mixed number anyone writes
            return None
        frac = -frac
    if whole:
        if frac >= 1:  # "3 5/2" is not a mixed number either
            return None
        frac += _to_int(whole)
    return -frac if sign == "-" else frac


def format_fraction(value: Fraction) -> str:
    """A canonical string for an exact number: ``"3"``, ``"-1/2"``, ``"0.125"`` when finite.

    >>> format_fraction(Fraction(1, 8)), format_fraction(Fraction(1, 3)), format_fraction(Fraction(6))
    ('0.125', '1/3', '6')
    """
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1 or max(twos, fives) > 30:
        return f"{value.numerator}/{value.denominator}"
    digits = max(twos, fives)
    scaled = abs(value) * 10**digits
    sign = "-" if value < 0 else ""
    int_part, frac_part = divmod(int(scaled), 10**digits)
    return f"{sign}{int_part}.{str(frac_part).rjust(digits, '0')}"


@dataclass(frozen=True)
class NumberMatch:
    """A number found in free text: the matched ``text``, its exact ``value`` and position."""

    text: str
    value: Fraction
    start: int
    end: int


# A free-text number: optional sign not glued to a preceding word or digit (so "5-3" is 5 and
# 3, not 5 and -3), then 1,234.5 / 1234 / .5. Word-glued digits ("x2", "H2O") still count:
# a last-number fallback has always read them.
_FREE_NUMBER_RE = re.compile(rf"(?:(?<![\w)\]}}])([-\u2212]))?({_DEC})")


def find_numbers(text: str) -> list[NumberMatch]:
    """All numbers in ``text``, in order (linear time).

    >>> [m.value for m in find_numbers("from -3 to 5-2, i.e. 1,000.5")]
    [Fraction(-3, 1), Fraction(5, 1), Fraction(2, 1), Fraction(2001, 2)]
    """
    out: list[NumberMatch] = []
    for m in _FREE_NUMBER_RE.finditer(text):
        digits = m.group(2)
        if len(digits) > MAX_NUMBER_CHARS:
            continue
        try:
            value = Fraction(digits.replace(",", ""))
        except ValueError:
            continue
        if m.group(1):
            value = -value
        body = text[m.start() : m.end()]
        out.append(NumberMatch(body, value, m.start(), m.end()))
    return out
