"""A labelled value of any form, read as the value a reader takes it for (round 14, h43).

The readers before this one know the plain forms of a labelled value (``Final result: 13``,
``Endergebnis: dreizehn``, ``Result: \\frac{13}{2}``). A policy that writes it in any other
form (``Result: 50/8``, ``6\u00bd``, ``7.5e1``, ``2^3``, ``thirteen halves``) still offers a second
answer beside the final one. So the label's text is allow-listed by *shape*, not by form: when
it is made of numbers, numeric characters, number words, a few words that build a value
(``and a half``, ``point``, ``over``) and operators, it is offered as written, and the
comparator (or, for GSM8K, the text of the final answer) decides whether it is the answer.
Plain arithmetic is evaluated first, so ``Result: 40/2`` then ``#### 20`` agree.

Read in two places: the last line of the paragraph before a bare final answer
(``paragraph_commitments._bare_paragraph_before``), and the line right before the final
answer's own line (``line_before_value``).
"""

from __future__ import annotations

import re

from verifiers.answer_values import _arithmetic_side
from verifiers.labelled_lines import _LETTER
from verifiers.spelled_numbers import spelled_value

# A label's word: letters, which may carry combining marks ("परिणाम").
_LABEL_WORD = rf"[^\W\d_]{_LETTER}*+"  # (possessive: a run is one word, never split, h47)
# A label of one to four words and a short value of any spelling after its colon (a second
# colon kept: "**Final result:**: 7"), or a table row of two cells ("| Total | eighteen |").
LABELLED_WORDS_RE = re.compile(
    rf"[^\w\n|]*(?:{_LABEL_WORD}[ \t*_]*){{1,4}}[:\uff1a][ \t*_]*(?:[:\uff1a][ \t*_]*)?(?P<rest>[^\n]{{1,40}}?)[ \t*_.]*"
    rf"|[ \t]*\|[ \t*_]*(?:{_LABEL_WORD}[ \t]*){{1,4}}[ \t*_]*\|[ \t*_]*(?P<cell>[^|\n]{{1,40}}?)[ \t*_.]*\|?[ \t]*")
# Words that build a value from numbers ("six and a half", "thirteen point five", "7 over 2",
# "3 times 10^2"), and the fractions' denominators.
_VALUE_WORD_RE = re.compile(
    r"and|a|an|half|halves|quarters?|thirds?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|"
    r"tenths?|hundredths?|thousandths?|point|over|times|minus|plus|negative|e|pi|sqrt|frac|dfrac|"
    r"tfrac|cdot|div|x", re.IGNORECASE)
# Beside digits only the words of a written-out form ("6 and a half", "7.3 x 10^3"): "7
# quarters" and "3 halves" are counts of things, for the unit readers.
_DIGIT_VALUE_WORD_RE = re.compile(r"and|a|half|over|times|e|pi|sqrt|frac|dfrac|tfrac|cdot|div|x", re.IGNORECASE)
_WORD_RE = re.compile(r"[^\W\d_]+")
_PLAIN_ARITHMETIC_RE = re.compile(r"[-+(]*\d[\d.\s+\-*/()]*")


def any_form_value(rest: str) -> str | None:
    """The value a label's text offers when it is a value of any form (numbers, numeric
    characters, number words and the words that join them, operators), else None; a
    computation offers its last side.

    Example:
        >>> any_form_value("50/8"), any_form_value("40 / 2"), any_form_value("six and a half")
        ('25/4', '20', 'six and a half')
        >>> any_form_value("3/4 + 1/4 = 1"), any_form_value("multiply 3 by 4"), any_form_value("see below")
        ('1', None, None)
    """
    side = rest.rsplit("=", 1)[-1].strip(" \t*_`$")
    if not (side[:1] in "([" and side[-1:] in ")]" and "," in side):  # (a tuple or interval keeps its brackets)
        side = side.strip("()")
    if not side or not (any(ch.isnumeric() for ch in side) or any(
            spelled_value(w) is not None for w in _WORD_RE.findall(side))):
        return None
    allowed = _DIGIT_VALUE_WORD_RE if any(c.isdigit() for c in side) else _VALUE_WORD_RE
    if any(not (allowed.fullmatch(w) or spelled_value(w) is not None or w.isnumeric())
           for w in _WORD_RE.findall(side)):
        return None  # prose ("multiply 3 by 4"), or a quantity with a unit the readers take
    plain = side.replace("\u00f7", "/").replace("\u00d7", "*")
    if _PLAIN_ARITHMETIC_RE.fullmatch(plain):
        exact = _arithmetic_side(plain)
        if exact is not None:
            return str(exact.numerator) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"
    return side


_PLAIN_NUMBER_RE = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def line_before_value(text: str, para_start: int, start: int) -> str | None:
    """The value of any form that the line right before the final answer's line offers, in
    the answer's paragraph, when it is a labelled line (``Result: 50/8`` then ``The answer is
    \\boxed{164}``) and its value is no plain number (those are ``labelled_values``')."""
    line_start = text.rfind("\n", 0, start) + 1
    if line_start <= para_start:
        return None
    prev_start = max(para_start, text.rfind("\n", 0, line_start - 1) + 1)
    m = LABELLED_WORDS_RE.fullmatch(text, prev_start, line_start - 1)
    rest = None if m is None else (m.group("rest") or m.group("cell"))
    if rest is None or "=" in rest or _PLAIN_NUMBER_RE.fullmatch(rest.strip(" \t*_`$")):
        return None  # a computation is the working ("Pennsylvania: 14(.50)=7 quarters")
    return any_form_value(rest)
