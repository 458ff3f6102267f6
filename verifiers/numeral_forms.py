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

__all__ = ["CJK_DIGITS", "CJK_SCALES", "ROMAN_RE", "cjk_value", "numerals_as_digits", "roman_numerals_as_digits",
           "roman_value", "roman_values_as_digits"]

CJK_DIGITS = {c: i for i, c in enumerate("\u96f6\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d")}
CJK_DIGITS.update({"\u3007": 0, "\u4e24": 2, "\u5169": 2})
CJK_SCALES = {"\u5341": 10, "\u767e": 100, "\u5343": 1000}
# The financial forms ("拾陆" is 16), read only in a run that stands alone: glued to CJK text
# they are words ("收拾", "大陆").
_FINANCIAL_DIGITS = {c: i for i, c in enumerate("\u96f6\u58f9\u8d30\u53c1\u8086\u4f0d\u9646\u67d2\u634c\u7396")}
_FINANCIAL_DIGITS.update({"\u8cb3": 2, "\u53c3": 3, "\u9678": 6})
_FINANCIAL_SCALES = {"\u62fe": 10, "\u4f70": 100, "\u4edf": 1000}


def cjk_value(text: str) -> int | None:
    """A CJK numeral below ten thousand (``八``, ``十二``, ``二十五``; financial forms: ``拾陆``),
    or digits one by one (``一五三`` is 153); None when ``text`` is neither."""
    if not text or len(text) > 20:
        return None  # (none, or more digits than a value a reader takes in)
    digits, scales = CJK_DIGITS, CJK_SCALES
    if not all(c in digits or c in scales for c in text):
        digits, scales = _FINANCIAL_DIGITS, _FINANCIAL_SCALES
    if len(text) > 1 and all(c in digits for c in text):
        return int("".join(str(digits[c]) for c in text))
    total, digit = 0, None
    for c in text:
        if c in digits:
            if digits[c] == 0 and total and digit is None:
                continue  # a zero marks a skipped place: "三百零四" is 304
            if digit is not None:
                return None  # a digit after a digit with a scale between: no numeral
            digit = digits[c]
        elif c in scales:
            total += (1 if digit is None else digit) * scales[c]
            digit = None
        else:
            return None
    return total + (digit or 0)


ROMAN_RE = re.compile(r"(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_DIGITS = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def roman_value(numeral: str) -> int:
    """A well-formed upper-case Roman numeral's value ("VII" is 7, "XIV" 14)."""
    values = [_ROMAN_DIGITS[c] for c in numeral]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


# The Roman numeral characters (U+2160-U+2188 but for a reversed C: "Ⅶ", "ⅻ", "ↂ"). Unlike the
# letters NFKC turns them into, they are never a word, a variable or a choice: "The answer is ⅴ."
# offers 5.
_ROMAN_CHARS_RE = re.compile("[\u2160-\u2182\u2185-\u2188]+")


def _roman_run(m: re.Match[str]) -> str:
    letters = unicodedata.normalize("NFKC", m.group()).upper()
    if ROMAN_RE.fullmatch(letters):
        return str(roman_value(letters))  # ("ⅩⅡ", two characters, is XII)
    if len(m.group()) == 1:
        return str(int(unicodedata.numeric(m.group())))  # ("ↁ" 5000, "ↇ" 50000)
    return letters


def roman_numerals_as_digits(text: str) -> str:
    """``text`` with each run of Roman numeral characters read as its value: ``Ⅶ`` is 7, ``ⅹⅱ``
    is 12 (a run that is no numeral reads as NFKC's letters)."""
    return _ROMAN_CHARS_RE.sub(_roman_run, text)


# An upper-case Roman numeral in a value's slot: right after a copula or a label's colon, before
# the sentence ends or a word ("The result is XVI.", "**Answer:** DCCCI Hope", "The total is IX
# apples."). Elsewhere it names a part ("Part II", "Chapter XI") or is a word ("I", "DC"). One
# letter (a variable as often: "The volume is V cubic units") only before the sentence's end, and
# after a colon two letters at least ("Note: V is ...").
_ROMAN_SLOT_RE = re.compile(
    r"(?:(?<![^\W\d_])(?:is|was|are|equals|ist|est|es|era|\u00e8|\u00e9|\u00e4r|er)[ \t]+(?P<one>[IVXL])"
    r"|(?<![^\W\d_])(?:is|was|are|equals|ist|est|es|era|\u00e8|\u00e9|\u00e4r|er)[ \t]+[*_$ \t]*(?P<word>[IVXLCDM]{2,12})"
    r"|[:\uff1a][*_$ \t]*(?P<label>[IVXLCDM]{2,12}))"
    r"(?(one)(?=[*_$]*[ \t]*(?:[.!?\n\u3002]|\Z))|(?=[*_$]*(?:[ \t]*(?:[.!?,;\n\u3002]|\Z)|[ \t]+[^\W\d_])))")


def _roman_slot(m: re.Match[str]) -> str:
    name = m.lastgroup or "one"
    numeral = m.group(name)
    if not ROMAN_RE.fullmatch(numeral) or numeral in ("I", "C", "D", "M"):
        return m.group()
    start = m.start(name) - m.start()
    return m.group()[:start] + str(roman_value(numeral))


# (a numeral of two letters has a letter before another; one of one letter ends its sentence: a
# cheap scan that most text, "I think" included, passes without a match)
_ROMAN_HINT_RE = re.compile("[IVXLCDM](?![a-z \t'\u2019])")


# A lower-case one (three letters at least, "lvii") right after a copula, ending its sentence
# ("So the number is lvii."): shorter ones are words or units ("cm", "ml", "mi", "xi") and so
# are a few longer ones ("mix", "dix", "liv").
_LOWER_ROMAN_SLOT_RE = re.compile(
    r"(?<![^\W\d_])(?:is|was|are|equals|ist|est|es|era|\u00e8|\u00e9|\u00e4r|er)[ \t]+[*_$ \t]*"
    r"(?P<word>[ivxlcdm]{3,12})(?=[*_$]*[ \t]*(?:[.!?\n\u3002]|\Z))")
# (the letters first, so that a scan skips to them; "did." passes it, the slot pattern decides)
_LOWER_ROMAN_HINT_RE = re.compile(r"[ivxlcdm]{3,12}[*_$]*[ \t]*(?:[.!?\n\u3002]|\Z)")
_LOWER_ROMAN_WORDS = frozenset({"mix", "dix", "liv", "mmm", "civ", "mic", "vic", "xxx"})


def _lower_roman_slot(m: re.Match[str]) -> str:
    numeral = m.group("word")
    if numeral in _LOWER_ROMAN_WORDS or not ROMAN_RE.fullmatch(numeral.upper()):
        return m.group()
    return m.group()[: m.start("word") - m.start()] + str(roman_value(numeral.upper()))


def roman_values_as_digits(text: str) -> str:
    """``text`` with each Roman numeral in a value's slot (``_ROMAN_SLOT_RE``,
    ``_LOWER_ROMAN_SLOT_RE``) read as its value: ``The result is XVI.`` reads ``The result is
    16.``, ``So the number is lvii.`` reads ``So the number is 57.``"""
    if _ROMAN_HINT_RE.search(text) is not None:
        text = _ROMAN_SLOT_RE.sub(_roman_slot, text)
    if _LOWER_ROMAN_HINT_RE.search(text) is not None:
        text = _LOWER_ROMAN_SLOT_RE.sub(_lower_roman_slot, text)
    return text


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
    f"(?<![{_CJK_TEXT}])(?:[{''.join(CJK_DIGITS)}{''.join(CJK_SCALES)}]+"
    f"|[{''.join(_FINANCIAL_DIGITS)}{''.join(_FINANCIAL_SCALES)}]+)(?![{_CJK_TEXT}])")
_HINT_CHARS = (frozenset(_RAISED_DIGIT) | frozenset(CJK_DIGITS) | frozenset(CJK_SCALES) | frozenset(_FINANCIAL_DIGITS)
               | frozenset(_FINANCIAL_SCALES))


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
