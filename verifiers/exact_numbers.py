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
>>> parse_quantity(r"12\\text{ cm}^2")   # a unit's power is part of the unit
(Fraction(12, 1), 'sq cm')
>>> parse_number(r"12\\text{ apples}^2") is None   # a power of any other word is no dressing
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

from verifiers.unit_words import read_words

__all__ = [
    "MAX_NUMBER_CHARS",
    "NumberMatch",
    "find_numbers",
    "format_fraction",
    "PERCENT_RE",
    "percent_equal",
    "parse_number",
    "parse_quantity",
    "read_words",
]

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

# A repeating decimal: 0.\overline{3}, 0.1\overline{6}, 2.\bar{45}.
_REPEAT_RE = re.compile(rf"({_SIGN})(\d*)\.(\d*)\\(?:overline|bar)\s*\{{(\d{{1,60}})\}}")

# Dressing removed before parsing; each pattern is anchored or literal (linear time).
_TEXT_UNIT_RE = re.compile(r"\\(?:text|mbox|mathrm|textbf|textrm)\{\s*([^{}]*)\}")
_TRAILING_WORDS_RE = re.compile(
    r"(?<=[\d}.])(?:\s+[A-Za-z][A-Za-z /]{0,40}(?:\^(?:\d|\{\d\}))?"
    # a word of another script: only a currency's reads ("72 \u0440\u0443\u0431\u043b\u044f", "94\uc6d0", "72\u5143")
    # (letters and the marks of Indic scripts: "\u0930\u0941\u092a\u092f\u0947" holds two vowel signs)
    r"|(?:\s+|(?=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]))(?=[^\W\d_]*[^\x00-\x7f])"
    r"(?:[^\W\d_]|[\u0900-\u0dff])+(?:[ \t](?:[^\W\d_]|[\u0900-\u0dff])+)?)$")
_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ\s*\}?|\\circ|°|\\degree")
_SPACES_RE = re.compile(r"\\[,!;: ]|~|\\quad|\\qquad")


def _to_int(s: str) -> int:
    return int(s.replace(",", ""))


# A capital letter after a number scales it (``59M`` is 59 million): never a unit's name.
_SCALE_LETTERS = frozenset({"K", "M", "B", "G", "T", "Mn", "Bn", "MM"})


# A decimal that trails off ("0.8333...", "2.718\\ldots", "41.46099…"): the digits go on.
_ELLIPSIS_DECIMAL_RE = re.compile(r"(\d+\.\d+)\s*(?:\.\.\.|\u2026|\\[lc]?dots(?![A-Za-z]))")


def _as_repeating(decimal: str) -> str | None:
    """``decimal`` (digits that trail off) as a repeating decimal when its last digits repeat
    a block of up to six, at least three digits and twice the block (``0.8333`` is
    ``0.8\\overline{3}``, ``0.142857142857`` is ``0.\\overline{142857}``); None when they
    do not: a value cut short (``2.718...``), which no number equals."""
    whole, _, digits = decimal.partition(".")
    for period in range(1, 7):
        k = len(digits) - period
        while k > 0 and digits[k - 1] == digits[k - 1 + period]:
            k -= 1
        if k >= 0 and len(digits) - k >= max(3, 2 * period):
            return f"{whole}.{digits[:k]}\\overline{{{digits[k:k + period]}}}"
    return None


_CURRENCY_CODES = {"rs": "rupee", "inr": "rupee", "usd": "dollar", "us": "dollar", "eur": "euro",
                   "rmb": "yuan", "cny": "yuan", "jpy": "yen", "gbp": "lb"}
_CURRENCY_CODE_RE = re.compile(r"(?i:(rs\.?|inr|usd|us(?=\$)|eur|rmb|cny|jpy))[ \t]*(?=[$\d])")


def _strip_dressing(s: str) -> tuple[str, int, str | None] | None:
    """``(number, scale, unit)``: ``s`` without its dressing, or None when a word in it is not
    dressing (``\\text{not } 5``, ``5 squared``)."""
    s = s.strip()
    ellipsis = _ELLIPSIS_DECIMAL_RE.search(s)
    if ellipsis is not None:  # "0.8333..." repeats its 3; "41.46099..." goes on unknown
        repeating = _as_repeating(ellipsis.group(1))
        if repeating is None:
            return None
        s = s[: ellipsis.start()] + repeating + s[ellipsis.end() :]
    # Sentence-final punctuation and surrounding math delimiters.
    s = s.rstrip(" .;,\n\t")
    if s.startswith("$") and s.endswith("$") and len(s) >= 2:
        s = s.strip("$").strip()
    # Each rewrite below runs only where its pattern's literal part occurs: most answers are
    # plain, and this parse is on every check's path.
    if ",\\!" in s:
        s = re.sub(r",\\!\s*", ",", s)  # MATH writes 11,\! 111 for 11,111
    s = s.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac").replace("\u2212", "-")
    if ("{,}" in s or "\\," in s) and re.search(r"\d(?:\{,\}|\\,)\d{3}", s):
        s = s.replace("{,}", ",").replace("\\,", ",")
    if "\\" in s or "~" in s:
        s = _SPACES_RE.sub(" ", s)
    s = s.replace("\\left", "").replace("\\right", "")
    # "\$5" and "$18" are money; "$5$ cm" has math delimiters (an even number of bare "$").
    bare_dollars = s.count("$") - s.count("\\$")
    unit = "dollar" if "\\$" in s or bare_dollars % 2 else None
    code = _CURRENCY_CODE_RE.match(s) if s[:1].isalpha() else None
    if code is not None:  # "Rs. 36", "US$72", "USD 72": a currency written before its amount
        s, unit = s[code.end() :], _CURRENCY_CODES[code.group(1).lower().rstrip(".")]
    s = s.replace("\\$", "").replace("$", "").replace("\\%", "").replace("%", "")
    if "\\circ" in s or "\\degree" in s or "\u00b0" in s:
        s, degrees = _DEGREE_RE.subn("", s)
        if degrees:
            unit = "deg" if unit is None else None
    # \text{...} becomes its words; only trailing words can be dressing, so "\text{not } 5"
    # stays "not 5" and is no number.
    if "\\" in s:
        s = _TEXT_UNIT_RE.sub(lambda m: f" {m.group(1)} ", s)
    if "^" in s:
        s = re.sub(r"[ \t]+(?=\^)", "", s)  # "\text{ cm}^2", "ft ^{2}": the power is the unit's
    s = s.strip()
    scale = 1
    m = _TRAILING_WORDS_RE.search(s)
    if m:
        number = s[: m.start()].strip().rstrip(" .,").strip("{} ")
        if m.group(0).strip() in _SCALE_LETTERS:
            return None  # "59\text{M}", "31 M": millions, not metres; "5K" is thousands
        read = read_words(m.group(0), after_one=number in ("1", "-1", "+1"))
        if read is None:
            return None
        scale, word_unit = read
        if word_unit is not None:
            if unit not in (None, word_unit):
                return None  # "\$5 euros": two units
            unit = word_unit
        s = s[: m.start()]
    s = s.strip().rstrip(" .,")
    while len(s) >= 2 and s[0] == "{" and s[-1] == "}":
        s = s[1:-1].strip()
    return s, scale, unit


def parse_number(text: str) -> Fraction | None:
    """The exact value of ``text`` if the whole string is one number, else ``None``.

    Understands integers with or without thousands separators (``1,000``, ``1\\,000``,
    ``1{,}000``), decimals, signs (also U+2212), ``a/b``, ``\\frac``/``\\dfrac``/``\\tfrac``,
    mixed numbers (``3 1/2``, ``3\\frac{1}{2}``), and strips ``$``, ``\\%``, degrees, a
    sentence-final period and trailing units (``5 cm``, ``5\\text{ cm}``) or a plural count noun
    (``12 apples``); a scale word multiplies (``5 thousand`` is 5000). Any other word makes the
    string no number: ``5 squared``, ``\\text{not } 5``.

    >>> parse_number("0.25"), parse_number("25\\\\%"), parse_number("2 million")
    (Fraction(1, 4), Fraction(25, 1), Fraction(2000000, 1))
    >>> parse_number("3 or 4") is None, parse_number("5 squared") is None
    (True, True)
    """
    quantity = parse_quantity(text)
    return None if quantity is None else quantity[0]


def parse_quantity(text: str) -> tuple[Fraction, str | None] | None:
    """``(value, unit)`` when ``text`` is one number, else None; ``unit`` is a canonical name
    (``"cm"`` for ``cm``/``centimeters``, ``"dollar"`` for ``\\$``) or None when none is given.

    >>> parse_quantity(r"5\\text{ centimeters}"), parse_quantity(r"\\$3")
    ((Fraction(5, 1), 'cm'), (Fraction(3, 1), 'dollar'))
    """
    if not isinstance(text, str) or len(text) > MAX_NUMBER_CHARS:
        return None
    dressed = _strip_dressing(text)
    if dressed is None:
        return None
    s, scale, unit = dressed
    if not s or len(s) > MAX_NUMBER_CHARS:
        return None
    value = _parse_bare(s)
    return None if value is None else (value * scale, unit)


def _parse_bare(s: str) -> Fraction | None:
    try:
        # Only the \frac form holds "\frac": the forms before it cannot match it.
        if "\\frac" in s and (m := _FRAC_RE.fullmatch(s)):
            sign, whole, inner_sign, num_b, num_d, den_b, den_d = m.groups()
            return _mixed(sign, whole, inner_sign, num_b or num_d, den_b or den_d)
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
        if m := _REPEAT_RE.fullmatch(s):
            sign, whole, fixed, cycle = m.groups()
            # 0.1(6) = (16 - 1) / 90: the digits through one cycle, less the fixed part.
            num = int(fixed + cycle) - int(fixed or "0")
            value = int(whole or "0") + Fraction(num, 10 ** len(fixed) * (10 ** len(cycle) - 1))
            return -value if sign in ("-", "\u2212") else value
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
        # "3 5/2", "0 1/2" and "3 0/2" are no mixed numbers either: two values side by side
        if frac >= 1 or frac == 0 or _to_int(whole) == 0:
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
# A minus glued to a Latin or Greek letter or a digit subtracts ("x-5", "3-5"); after a word of
# another script (no variable is written in it) it is the number's sign ("答案是-5").
_FREE_NUMBER_RE = re.compile(
    rf"(?:(?<![\dA-Za-z_\u00c0-\u024f\u0370-\u03ff)\]}}])([-\u2212]))?({_DEC})"
)


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



# A percent sign in any spelling a reader takes for one.
PERCENT_RE = re.compile(r"%|\uff05|\bper\s?cent\b|\\text\{\s*percent\s*\}", re.IGNORECASE)


def percent_equal(pred: Fraction, gold: Fraction, *, gold_plain: bool) -> bool:
    """Whether ``pred`` written with a percent sign (X%) equals a ``gold`` written without
    one. When the gold is a plain number of at least 1 the sign is dressing on the gold's own
    number (``25\\%`` for GSM8K's ``25``: golds of "what percent" questions drop the sign);
    otherwise X% is X of 100 (``40\\%`` for ``\\frac{2}{5}``, ``50\\%`` for ``0.5``). One
    reading per gold, never both: not ``0.75\\%`` for ``\\frac34`` (that is 3/400), not
    ``5000\\%`` for ``50``.

    >>> percent_equal(Fraction(40), Fraction(2, 5), gold_plain=False)
    True
    >>> percent_equal(Fraction(3, 4), Fraction(3, 4), gold_plain=False), percent_equal(Fraction(25), Fraction(25), gold_plain=True)
    (False, True)
    """
    if gold_plain and abs(gold) >= 1:
        return pred == gold  # (then "5000%" is not 50: one reading, never both)
    return pred == 100 * gold
