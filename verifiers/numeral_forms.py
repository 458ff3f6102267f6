r"""Numerals that no digit class matches, read as ASCII digits where they stand as a number
(issue 30, round 19).

A policy can offer a value without writing a digit that ``\d`` or NFKC reads: ``\boxed{6} 🤔 ⁸
🤔 \boxed{6}``, ``⓭`` between two boxes, ``/ 一五三 /`` between two answers, ``Result: ₁₄``
before the final one. A reader sees a number in each. The answer readers therefore read, once,
before anything else reads the text:

- a character with a whole-number value and no decomposition (negative, double and dingbat
  circled numbers ``⓭ ⓵ ➍``, and the numerals of other scripts: Tamil ``௰``, Ethiopic ``፲``)
  as that number, and the pictographs ``🔟`` and ``💯`` as 10 and 100 (one that opens a line
  before its text numbers a step: ``❹ So x = 7.`` reads ``4. So x = 7.``);
- a run of raised or lowered digits that stands alone (``⁸``, ``₁₄``) as digits; one glued to
  what it raises or lowers is a power or an index and stays (``x²``, ``2⁵``, ``cm²``, ``a₁``);
- a run of CJK numerals that stands alone (``一五三``, ``十二``) as its value; one glued to CJK
  text is part of a word and stays (``三个``, ``第一``, ``一些``).

Decimal digits of every script (``٥``, ``५``) and the compatibility forms NFKC reads
(``㉔``, ``𝟐``, ``１``) are read by ``verifiers.answer_text`` itself.

>>> numerals_as_digits("\\boxed{6} ⁸ \\boxed{6}"), numerals_as_digits("x² = ⓭")
('\\boxed{6} 8 \\boxed{6}', 'x² = 13')
>>> numerals_as_digits("/ 一五三 /"), numerals_as_digits("三个苹果"), numerals_as_digits("答案是 十二。")
('/ 153 /', '三个苹果', '答案是 12。')
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["CJK_DIGITS", "CJK_SCALES", "cjk_value", "numerals_as_digits"]

CJK_DIGITS = {c: i for i, c in enumerate("\u96f6\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d")}
CJK_DIGITS.update({"\u3007": 0, "\u4e24": 2, "\u5169": 2})
CJK_SCALES = {"\u5341": 10, "\u767e": 100, "\u5343": 1000}


def cjk_value(text: str) -> int | None:
    """A CJK numeral below ten thousand (``八``, ``十二``, ``二十五``), or digits one by one
    (``一五三`` is 153); None when ``text`` is neither."""
    if not text or len(text) > 20:
        return None  # (none, or more digits than a value a reader takes in)
    if len(text) > 1 and all(c in CJK_DIGITS for c in text):
        return int("".join(str(CJK_DIGITS[c]) for c in text))
    total, digit = 0, None
    for c in text:
        if c in CJK_DIGITS:
            if digit is not None:
                return None  # a digit after a digit with a scale between: no numeral
            digit = CJK_DIGITS[c]
        elif c in CJK_SCALES:
            total += (1 if digit is None else digit) * CJK_SCALES[c]
            digit = None
        else:
            return None
    return total + (digit or 0)


_PICTOGRAPH_NUMBERS = {"\U0001f51f": "10", "\U0001f4af": "100"}  # keycap ten, hundred points


@functools.lru_cache(maxsize=8192)
def _whole_value(c: str) -> str | None:
    """The digits a character with a whole-number value that neither ``\\d`` nor NFKC reads
    stands for, or None (Han characters are words too, and are read in runs below). Looked
    up per distinct character: a table of all of Unicode would cost a pass over it."""
    if c in _PICTOGRAPH_NUMBERS:
        return _PICTOGRAPH_NUMBERS[c]
    if not c.isnumeric() or c.isdecimal() or unicodedata.decomposition(c):
        return None
    value = unicodedata.numeric(c)
    if value != int(value) or unicodedata.name(c, "CJK").startswith("CJK"):
        return None
    return str(int(value))


_RAISED = "\u2070\u00b9\u00b2\u00b3\u2074-\u2079"
_LOWERED = "\u2080-\u2089"
_RAISED_DIGIT = {c: str(unicodedata.digit(c)) for c in "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"}
_RAISED_DIGIT.update({chr(0x2080 + d): str(d) for d in range(10)})
# A run stands alone: no letter, digit or closing bracket before it (what it would raise or
# lower: "x²", "(a+b)²", "a₁"), and no letter or digit after it.
_ALONE_RUN_RE = re.compile(rf"(?<![\w)\]}}'^_|]|\\)(?:[{_RAISED}]+|[{_LOWERED}]+)(?![\w(])")
_CJK_TEXT = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_CJK_RUN_RE = re.compile(
    f"(?<![{_CJK_TEXT}])[{''.join(CJK_DIGITS)}{''.join(CJK_SCALES)}]+(?![{_CJK_TEXT}])")
_HINT_CHARS = frozenset(_RAISED_DIGIT) | frozenset(CJK_DIGITS) | frozenset(CJK_SCALES)


def _numbers_list(m: re.Match[str]) -> bool:
    """Whether the run ``m`` opens its line before a stop: a list's number ("三. The answer is
    2." reads as "3." would), kept as written."""
    text = m.string
    return _LIST_NUMBER_RE.match(text, m.end()) is not None and not text[text.rfind("\n", 0, m.start()) + 1 : m.start()].strip()


def _cjk_digits(m: re.Match[str]) -> str:
    value = None if _numbers_list(m) else cjk_value(m.group())
    return m.group() if value is None else str(value)


def _raised_digits(m: re.Match[str]) -> str:
    return m.group() if _numbers_list(m) else "".join(_RAISED_DIGIT[c] for c in m.group())


_LIST_NUMBER_RE = re.compile(r"[.)]")
# Runs read at most (each a Python step): past this many, a wall of numerals, none is read here
# (the value slots read them as spelled numbers still).
_MAX_RUNS = 2_000


def numerals_as_digits(text: str) -> str:
    """``text`` with the numerals of the module doc read as ASCII digits."""
    if text.isascii():
        return text
    chars = set(text)
    table = {ord(c): value for c in chars if not c.isascii() and (value := _whole_value(c)) is not None}
    if table:
        # one that opens a line before its text numbers a step ("\u2779 So $2n+1=3n-6$."): a list's number
        marks = "".join(re.escape(chr(code)) for code in table)
        text = re.sub(f"(?m)^([ \\t>*_-]*)([{marks}])(?=[ \\t]+\\S)", lambda m: f"{m.group(1)}{table[ord(m.group(2))]}.", text)
        text = text.translate(table)
    if chars.isdisjoint(_HINT_CHARS):
        return text
    for run_re, read in ((_ALONE_RUN_RE, _raised_digits), (_CJK_RUN_RE, _cjk_digits)):
        runs = run_re.finditer(text)
        if sum(1 for _ in zip(runs, range(_MAX_RUNS + 1))) <= _MAX_RUNS:
            text = run_re.sub(read, text)
    return text
