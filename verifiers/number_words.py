"""English number words as exact integers: ``eighteen``, ``twenty-five``, ``one hundred and
five``, ``three thousand two hundred``, ``1 800`` (digit groups split by a space).

Only a whole phrase of number words is read; anything else (``eighteen or nineteen``, ``a few``)
is None, never a guess.

>>> read_number_words("eighteen"), read_number_words("Twenty-five"), read_number_words("a few")
(18, 25, None)
>>> read_number_words("one thousand two hundred and five"), read_spaced_digits("1 800")
(1205, '1800')
"""

from __future__ import annotations

import re

__all__ = ["MAX_NUMBER_WORDS", "number_words", "read_number_words", "read_spaced_digits"]

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9}
_MAX_WORDS = 20
MAX_NUMBER_WORDS = 2 * _MAX_WORDS  # the longest run of words (commas counted) ever read
# Digit groups split by a space, a no-break or a thin space: "1 800", "12\u202f500".
_SPACED_RE = re.compile(r"([-\u2212]?)(\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+)(\.\d+)?")


def read_number_words(text: str) -> int | None:
    """The integer ``text`` spells out in English words, or None."""
    # A comma may follow a scale word only ("one thousand, two hundred"): "twenty, eight" is
    # two numbers.
    words = text.lower().replace("-", " ").replace(",", " , ").split()
    if not words or len(words) > MAX_NUMBER_WORDS:
        return None
    total, group, seen = 0, 0, False
    previous, last_scale = "", 0
    for word in words:
        if word == ",":
            if previous not in _SCALES:
                return None
            continue
        if word == "and" and seen:
            previous = word
            continue
        if word in _UNITS:
            if previous in _UNITS or (previous in _TENS and group % 10):
                return None  # "five six": two numbers
            group += _UNITS[word]
        elif word in _TENS:
            if group % 100:
                return None  # "five twenty"
            group += _TENS[word]
        elif word == "hundred":
            if group == 0 or group >= 100:
                return None
            group *= 100
        elif word in _SCALES:
            if group == 0 or (last_scale and _SCALES[word] >= last_scale):
                return None  # "one thousand one thousand": scales fall, never repeat
            last_scale = _SCALES[word]
            total += group * _SCALES[word]
            group = 0
        else:
            return None
        seen = True
        previous = word
    return total + group if seen and previous != "," else None


def read_spaced_digits(text: str) -> str | None:
    """``text`` without the spaces between its digit groups (``1 800`` -> ``1800``) when it
    is one such number, else None."""
    m = _SPACED_RE.fullmatch(text.strip())
    if m is None:
        return None
    return m.group(1) + re.sub(r"\D", "", m.group(2)) + (m.group(3) or "")


def number_words(n: int) -> str | None:
    """``n`` in English words for 0 <= n < 10**6 (the reader's inverse), else None.

    >>> number_words(1205), read_number_words(number_words(1205))
    ('one thousand two hundred five', 1205)
    """
    if not 0 <= n < 10**6:
        return None
    ones, tens = list(_UNITS), {v // 10: k for k, v in _TENS.items()}
    if n < 20:
        return ones[n]
    if n < 100:
        return tens[n // 10] + ("" if n % 10 == 0 else "-" + ones[n % 10])
    if n < 1000:
        rest = n % 100
        return ones[n // 100] + " hundred" + ("" if rest == 0 else " " + number_words(rest))
    rest = n % 1000
    head = number_words(n // 1000) + " thousand"  # type: ignore[operator]
    return head + ("" if rest == 0 else " " + number_words(rest))  # type: ignore[operator]
