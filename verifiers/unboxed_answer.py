r"""An answer that no commitment marks: the fallbacks of ``verifiers.math_extract`` when a
completion has no box, tag, ``####`` line or "answer" clause (the last math span, the last
number and the hedge or list it ends: ``last_number``, ``is_hedge``), and the ``closing`` rule
of its grammar that such an answer must fit (``_closing_form``: ``... = X``, X alone on its
line, or a sentence whose one value is not denied or bounded), with the allow-list of words
between an answer's lead-in and its value (``_lead_in_gap``, read for a final box too) and
an approximation sign before the value (``_approx_before``). Moved out of
``verifiers.math_extract`` unchanged."""

from __future__ import annotations

import re

from verifiers.answer_commitments import _APPROX_BEFORE_RE
from verifiers.answer_lead import _DIGIT_RE, lead_start, uncommitted_lead
from verifiers.answer_sentence import (
    _ANSWER_PHRASES_RE,
    _COUNTED_RE,
    _FOREIGN_WORD_RE,
    _condition_before,
)
from verifiers.answer_tail import _DENIED_BEFORE_RE
from verifiers.answer_values import (
    _SENTENCE_END_RE,
    _TAIL_VALUE_RE,
    _UNIT_POWER_RE,
    MAX_LINE_CHARS,
    _sentence_start,
)
from verifiers.commitment_reading import _WORD_RE, MAX_BOX_CHARS, _last_bare_dollar
from verifiers.concluded_line import concluded_values
from verifiers.earlier_answers import shaped_before, standing_answers
from verifiers.exact_numbers import find_numbers, parse_number
from verifiers.labelled_forms import line_before_value
from verifiers.labelled_lines import (
    _ANSWER_NOUN,
    READ_BACK_CHARS,
    _used_later,
    labelled_values,
    value_first_values,
)
from verifiers.lead_words import CONNECTIVE_WORDS, LABEL_WORDS
from verifiers.paragraph_commitments import (
    _LABEL_RE,
    _bare_paragraph_before,
    _paragraph_values,
    _revised_values,
)
from verifiers.qualifier_words import LEAD_CHARS, qualified_before, qualified_lead
from verifiers.types import HEDGED, MALFORMED
from verifiers.unread_slots import unread_slot_words

_APPROX_SIGN_BEFORE_RE = re.compile(
    r"(?:~|\u2248|\u223c|\\approx|\\sim|\\simeq|\b(?:at\s+least|at\s+most|more\s+than|"
    r"less\s+than|over|under|up\s+to|near|close\s+to|in\s+the\s+(?:region|vicinity|"
    r"neighbou?rhood|ballpark)\s+of))\s*(?:\$\s*)?\Z",
    re.IGNORECASE,
)


# --- fallbacks: the final math span, the last bare number --------------------------------


_ANSWER_NOUN_RE = re.compile(_ANSWER_NOUN, re.IGNORECASE)
# "the total is" commits as "the answer is" does: its short opener is read ("Siguro, the total is 6.")
_TOTAL_RE = re.compile(r"\b(?:total|sum|result)\s+(?:is|was|comes\s+to)\b", re.IGNORECASE)

def _last_span(text: str, before: int) -> tuple[int, int, int, int] | None:
    """``(start, content_start, content_end, end)`` of the last math span ending by
    ``before``, or None."""
    best: tuple[int, int, int, int] | None = None
    for left, right in (("\\(", "\\)"), ("\\[", "\\]")):
        close = text.rfind(right, 0, before - 1)
        if close > 0:
            open_ = text.rfind(left, max(0, close - MAX_BOX_CHARS), close)
            if open_ >= 0 and (best is None or close > best[2]):
                best = (open_, open_ + 2, close, close + 2)
    # "$": spans pair up from the start, so the last "$" closes one only when the count of
    # bare "$" is even; otherwise one is a dollar sign and the pairing is unknowable.
    bare = text.count("$", 0, before) - text.count("\\$", 0, before)
    if bare >= 2 and bare % 2 == 0:
        close = _last_bare_dollar(text, before)
        if close > 0 and text[close - 1] == "$" and text[close - 2 : close] != "\\$":
            close -= 1  # "$$": find its opening "$$"
            open_ = _last_bare_dollar(text, close)
            open_ = open_ - 1 if open_ > 0 and text[open_ - 1] == "$" else open_
            width = 2
        else:
            open_ = _last_bare_dollar(text, close)
            width = 1
        if 0 <= open_ < close and (best is None or close > best[2]):
            best = (open_, open_ + width, close, close + width)
    return best


def _last_digit(text: str) -> int:
    return max(text.rfind(d) for d in "0123456789")


def last_number(text: str) -> tuple[str, int] | None:
    """``(number, end)``: the last number in ``text``, or the whole hedge or list it ends
    ("3 or 4", "6, or possibly 7", "6, 7"), and the index just past it. Only the text around
    the last digit is scanned.

    >>> last_number("It is 5 or maybe 6."), last_number("In 2 days: 1,000 apples")
    (('5 or maybe 6', 18), ('1,000', 16))
    """
    last = _last_digit(text)
    if last < 0:
        return None
    lo = max(0, last - 1_000)
    numbers = find_numbers(text[lo : last + 1 + MAX_LINE_CHARS])
    if not numbers:
        return None
    first = len(numbers) - 1
    while first > 0:
        between = text[lo + numbers[first - 1].end : lo + numbers[first].start]
        if len(between) >= 40 or _SENTENCE_END_RE.search(between):
            break
        if not (_HEDGE_BETWEEN_RE.search(between) or _LIST_BETWEEN_RE.fullmatch(between)):
            break
        first -= 1
    end = lo + numbers[-1].end
    percent = _PERCENT_AFTER_RE.match(text, end)  # "0.75%" is 3/400, never 0.75: read the sign
    end = end if percent is None else percent.end()
    if "." in numbers[-1].text:  # "2.718..." trails off: read the ellipsis with the digits
        ellipsis = _ELLIPSIS_AFTER_RE.match(text, end)
        end = end if ellipsis is None else ellipsis.end()
    return text[lo + numbers[first].start : end], end


_ELLIPSIS_AFTER_RE = re.compile(r"[ \t]*(?:\.\.\.|\u2026|\\[lc]?dots(?![A-Za-z]))")
_PERCENT_AFTER_RE = re.compile(r"[ \t]*(?:\\?%|\uff05|per\s?cent\b)", re.IGNORECASE)
_HEDGE_BETWEEN_RE = re.compile(r"\b(?:or|and/or)\b", re.IGNORECASE)
_LIST_BETWEEN_RE = re.compile(r"\s*\$?\s*[,;]\s*\$?\s*")


def is_hedge(answer: str) -> bool:
    """Whether an extracted answer offers alternatives: "5 or 6", "5 and/or 6", "6, 7".

    >>> is_hedge("5 or 6"), is_hedge("6, 7"), is_hedge("1,000"), is_hedge("5")
    (True, True, False, False)
    """
    if _HEDGE_BETWEEN_RE.search(answer):
        return True
    numbers = find_numbers(answer)
    return any(
        _LIST_BETWEEN_RE.fullmatch(answer[a.end : b.start]) for a, b in zip(numbers, numbers[1:])
    )


def _approx_before(text: str, start: int) -> tuple[str, str] | None:
    before = text[max(0, start - 40) : start]
    if _APPROX_BEFORE_RE.search(before) or _APPROX_SIGN_BEFORE_RE.search(before):
        return HEDGED, "an approximate answer"
    return None


# Between an answer lead-in ("The answer is", "Ответ:", "答案是") and its value on the same
# sentence: an allow-list. Nothing, markup and spacing, a few adverbs that do not change the
# value, and math that runs on into the value ("the answer is $3! \times 5! = \boxed{720}$").
# Any other word ("twice", "minus", "the reciprocal of", "menos", "负", "almeno") scales,
# negates or bounds the value the lead-in commits to.
_LEAD_IN_FILLER_RE = re.compile(
    r"(?:\s|[:\uff1a,*_~\u20ac\u00a3\u00a5\u20b9]|\\\$|\$\$?|\\\(|\\\[|\\[,;:! ]|\\q?quad(?![A-Za-z])|"
    r"\\(?:displaystyle|textbf|mathbf|text|mathrm|bm|boldsymbol)(?![A-Za-z])\s*\{?|\{|"
    r"\b(?:therefore|thus|so|then|just|exactly|indeed|simply|clearly|hence|now|finally|"
    r"precisely|still|only|given\s+by|equal\s+to|equals|as\s+follows|the\s+following|below|here|"
    r"option|choice|worth|left\s+with|"
    # (the subject after its verb: "Also ist die Antwort 7", "Donc est la réponse 7")
    r"(?:die|der|das|la|le|el|a|o)\s+(?:antwort|l\u00f6sung|ergebnis|endergebnis|r\u00e9ponse|respuesta|resposta|"
    r"risposta))\b)*"
    r"(?:(?<=[$(\[{])[^$\n]{0,300}?(?:=|\\approx)[\s{]*)?",
    re.IGNORECASE,
)
_LEAD_IN_STOP_RE = re.compile(r"[.!?\u3002]\$?(?=\s|$)|\n\s*\n")
# A word that commits again inside the gap ("the answer is the sum, which is $\boxed{5}$"):
# only what follows the last one is read as the gap.
_RECOMMIT_RE = re.compile(
    r"\b(?:is|are|be|equals|namely|gives?|get|becomes)\b|=|\\in(?![A-Za-z])", re.IGNORECASE
)


# In an unboxed closing sentence a copula commits too: "So the total is almeno 99." bounds
# the value as "The answer is almeno 99." does.
_COPULA_RE = re.compile(
    r"\b(?:is|are|was|were|equals|es|est|ist|\u00e9|\u00e8|adalah)\b(?!\s+(?:not|no)\b)|"
    r"[:=\u662f\u4e3a]",
    re.IGNORECASE,
)


# One to four words (any script) with spacing and opening math or bold around them.
# (possessive letter runs: 300 letters without a space cost seconds when a run could split
# into up to four words, h47)
_WORDS_ONLY_RE = re.compile(r"[\s*$~\u2212-]*(?:[^\W\d_]++[\s*$~\u2212-]*){1,4}|[\s$]*[\u2212-][\s$]*")


def _lead_in_gap(text: str, start: int, lead_re: re.Pattern[str] = _LABEL_RE) -> tuple[str, str] | None:
    """Why the words between the last answer lead-in (``lead_re``) of the value's sentence
    and the value starting at ``start`` are no allow-listed filler, or None (no lead-in
    there: fine)."""
    window = max(0, start - 300)
    last = None
    for last in lead_re.finditer(text, window, start):  # noqa: B007 - the last one
        pass
    if last is None:
        return None
    gap = text[last.end() : start]
    if _LEAD_IN_STOP_RE.search(gap) or ("\n" in gap and gap.split("\n", 1)[0].strip(" \t*:")):
        return None  # (a lead-in whose own line holds its value is a clause: the paragraph rule)
    again = None
    for again in _RECOMMIT_RE.finditer(gap):  # noqa: B007 - the last one
        pass
    if lead_re is _COPULA_RE and not _WORDS_ONLY_RE.fullmatch(gap, again.end() if again else 0):
        return None  # after a copula, math or a clause is a derivation; only words qualify
    if _LEAD_IN_FILLER_RE.fullmatch(gap) or (again and _LEAD_IN_FILLER_RE.fullmatch(gap, again.end())):
        return None
    return MALFORMED, f"words between the answer's lead-in and its value: {gap.strip()[:40]!r}"


_EQUALS_BEFORE_RE = re.compile(r"=[\s$*(]*\Z")


# A negation anywhere in the closing sentence before its value: the sentence may deny the value
# ("Tom never got 72 minutes.") however far the negation stands from it (round 10, h30).
_NEGATION_RE = re.compile(
    r"\b(?:not|never|no\s+longer|cannot|nobody|nothing|neither|nor|none)\b|n['\u2019]t\b", re.IGNORECASE)


def _closing_form(text: str, start: int, *, look_back: bool = True) -> tuple[str, str] | None:
    """Why the unboxed answer starting at ``start`` fits no allow-listed closing form, or
    None. The forms: ``... = X`` (the result of a check or computation), X alone on its line,
    and a sentence that offers X as its one value, not after a word that denies or bounds it
    (``It is 6, not 5.``, ``The answer is not 5.`` and ``x is greater than 5`` fit none)."""
    head = text[lead_start(text, _sentence_start(text, start)) : start]
    line_start = text.rfind("\n", 0, start) + 1
    gap = _lead_in_gap(text, start) or _lead_in_gap(text, start, _COPULA_RE)
    if gap is not None:
        return gap
    foreign = _foreign_words(text, line_start, start)
    if foreign is not None:
        return HEDGED, f"the closing sentence holds words outside the answer phrases: {foreign!r}"
    if _EQUALS_BEFORE_RE.search(head):
        return (_unit_equated(text, start) or _stated_before_variable(head, _LEADING_NUMBER_RE.match(text, start).group(0))
                or _assigned_twice(text[text.rfind("\n\n", 0, start) + 1 : start])
                or (_earlier_other(text, start) if look_back else None))  # "Antwort: 11\n\n...\n\nSo x = 5."
    if not text[line_start:start].strip(" \t*#>$-"):
        opener = lead_start(text, line_start)
        if opener < line_start:  # "Maybe,\n9.", "If n is odd,\n9.": the line before opens it
            lead = uncommitted_lead(text[opener:line_start].rstrip() + " ", committed=False)
            lead = lead or _condition_before(text, start)
            if lead is not None:
                return lead
        # "Either 65 or 80.\n80", "**33**\n\n**14**": the paragraph's values are read as well
        return _continued_line(text, line_start) or _paragraph_offers(text, start, bare=True, look_back=look_back)
    questioned = text.rfind("?", line_start, start)
    if questioned >= 0 and _TAIL_VALUE_RE.search(text, line_start, questioned):
        return HEDGED, "a questioned value before the closing one on its line"
    # an answer clause in any language commits ("Jos en erehdy, 答案是2." is read as
    # "Jos en erehdy, the answer is 2": its short opener must be allow-listed)
    committed = _ANSWER_NOUN_RE.search(head) is not None or _TOTAL_RE.search(head) is not None
    lead = uncommitted_lead(head, committed=committed)
    if lead is not None:
        return lead
    if _DENIED_BEFORE_RE.search(head) or qualified_before(head):
        return HEDGED, "the final value is denied or bounded by the words before it"
    negation = _NEGATION_RE.search(head)
    if negation is not None:  # "She doesn't have 72 dollars.", "The sum does not equal 841."
        return HEDGED, f"the closing sentence negates: {negation.group(0)!r}"
    lead = qualified_lead(text[max(line_start, start - LEAD_CHARS) : start])
    if lead is not None:
        return HEDGED, lead
    condition = _condition_before(text, start)  # "If n is odd, 5." as "If n is odd, \boxed{5}."
    if condition is not None:
        return condition
    for m in _TAIL_VALUE_RE.finditer(head):
        if head.startswith("\u4e00\u5171", m.start()):
            continue  # "一共是 54": "in total", an answer phrase whose "一" counts nothing
        if not _UNIT_POWER_RE.search(head, max(0, m.start() - 8), m.start()):
            return HEDGED, f"the closing sentence offers more than one value: {m.group(0)!r}"
    return _paragraph_offers(text, start, bare=_WORD_RE.search(head) is None, look_back=look_back)


# A variable given one number ("x = 6.", "n=4"): a result of the working, which a bare value
# after it (no word of its own) does not follow from.
_ASSIGNMENT_RE = re.compile(
    r"(?<![\w\\])(?P<variable>[A-Za-z])[ \t]*=[ \t$*]*(?P<number>[-+\u2212]?\d+(?:\.\d+)?)(?![\d.,]*\d)[ \t$*]*(?=[.,;!?]?(?:\s|\Z))")


def _stated_before_paragraph(prev: str) -> str | None:
    """The value that the last sentence of ``prev`` states as a closing sentence does (``She
    has 860 apples.``), or None (no value, or a sentence the closing rules would not pay)."""
    found = last_number(prev)
    if found is None or parse_number(found[0]) is None:
        return None
    number, end = found
    # (the paragraph before that one is not read: one paragraph back, never a chain of them)
    if _DIGIT_RE.search(prev, end) or _closing_form(prev, end - len(number), look_back=False) is not None:
        return None  # another value after it, or no closing sentence ("Step 3: 2 + 2")
    return number


def _earlier_other(text: str, start: int) -> tuple[str, str] | None:
    """Why a labelled value of the final paragraph or an answer committed in an earlier one
    (``verifiers.earlier_answers``) that is not the value at ``start`` refuses it, or None
    ("Respuesta: 6\nx = 9", "Antwort: 11\n\n...\n\nSo x = 5.")."""
    para_start = text.rfind("\n\n", 0, start) + 1
    labelled = labelled_values(text, para_start, start) or []  # (a wall of check lines: the checks' own rule)
    for value in [*labelled, *shaped_before(text, start), *standing_answers(text, start)]:
        value = value.rstrip(".!\u3002 ")
        if value and re.match(r"(?:[\s$*_]|\\[(\[])*" + re.escape(value) + _SAME_END, text[start:]) is None:
            return HEDGED, f"the final paragraph offers another value before it: {value[:40]!r}"
    return None


def _paragraph_offers(text: str, start: int, *, bare: bool = False, look_back: bool = True) -> tuple[str, str] | None:
    """Why a value offered earlier in the final paragraph (or as the paragraph before, when
    both are bare) differs from the closing value at ``start``, or None. A ``bare`` closing
    value (no word in its sentence: "x = 6.\n5") does not follow from a variable's value
    given before it either."""
    para_start = text.rfind("\n\n", 0, start) + 1
    if look_back and bare and para_start > 0 and not text[para_start:start].strip(" \t\n*_$#>"):
        # "She has 860 apples.\n\n859.": a value alone in its paragraph after one that ends
        # by stating another (a closing sentence that the rules would pay) offers two
        stated = _stated_before_paragraph(text[:para_start].rstrip())
        opened = _SPAN_OPENER_RE.match(text, start).end()  # type: ignore[union-attr] - ("$6$": its digits)
        value = _LEADING_NUMBER_RE.match(text, opened).group(0)  # type: ignore[union-attr]
        if stated is not None and parse_number(stated) != parse_number(value):
            return HEDGED, f"the paragraph before states another value: {stated[:40]!r}"
    if bare:
        line_end = text.find("\n", start)
        hi = len(text) if line_end < 0 else line_end
        for m in _ASSIGNMENT_RE.finditer(text, max(para_start, start - READ_BACK_CHARS), start):
            same = re.match(r"(?:[\s$*_]|\\[(\[])*" + re.escape(m.group("number")) + r"(?!\d|[.,]\d)", text[start:])
            variable = re.compile(rf"(?<![A-Za-z\\]){m.group('variable')}(?![A-Za-z])")
            if variable.search(text, m.end(), start):
                continue  # "x = 6\ny = 2x - 7 = 5\n5": the variable is used on, a step
            if same is None and not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + 2_000)):
                return HEDGED, f"the final paragraph gives a variable another value before it: {m.group(0).strip()[:40]!r}"
    revised = _revised_values(text, para_start, start)
    labelled = labelled_values(text, para_start, start)  # "Final: 9\nFinal: 6"
    if labelled is None:
        return HEDGED, "more labelled values in the final paragraph than one answer can be"
    opening = value_first_values(text, para_start, start)  # "6 is correct.\nSo it is 5."
    if opening is None:
        return HEDGED, "more values opening sentences in the final paragraph than one answer"
    unread = unread_slot_words(text, para_start, start)  # "veintiuno.\nThe answer is 31."
    if unread:
        return HEDGED, f"the final paragraph offers a value it does not read before it: {unread[0][:40]!r}"
    # a value of any form ("Result: \u00bd"), in the paragraph before or on the line before
    before = [*_bare_paragraph_before(text, para_start, start), *filter(None, [line_before_value(text, para_start, start)]),
              *(standing_answers(text, start) if look_back else ())]  # "TL;DR: 30\n\n...\n\nSo the total is 20."
    # an answer clause of the paragraph, whatever its value's form ("Die Antwort ist XVII.")
    clauses = _paragraph_values(text, start, labelled_lines=False, look_back=False)
    for value in [*before, *revised, *labelled, *opening, *clauses]:
        value = value.rstrip(".!\u3002 ")
        same = re.match(r"(?:[\s$*_]|\\[(\[])*" + re.escape(value) + _SAME_END, text[start:])
        if value and (value in before or _TAIL_VALUE_RE.search(value)) and same is None:
            return HEDGED, f"the final paragraph offers another value before it: {value[:40]!r}"
    leading = _FIRST_NUMBER_RE.search(text, start, start + 80)  # (a math span's "$" may open it)
    concluded = concluded_values(text, start, leading.group(0)) if leading is not None else ()
    if concluded:  # "Vậy tổng số táo là 821.\n\n**Đáp án:** 820"
        return HEDGED, f"the working's last sentence concludes another amount: {concluded[0]!r}"
    return None


_LINE_SENTENCE_END_RE = re.compile(r"[.!?\u3002\u0964\u061f](?=\s|$)|\n")


def _foreign_words(text: str, line_start: int, start: int) -> str | None:
    """The first word of another script on the closing value's line (its sentence, before
    and after the value) that is no answer phrase, or None."""
    stop = _LINE_SENTENCE_END_RE.search(text, start)
    line = text[line_start : len(text) if stop is None else stop.start()]
    if line.isascii():
        return None
    # each different word judged once (a 1 MB line of one answer word is one word); a word
    # that is no answer phrase may still stand in one ("số": "s" and "ố"), so only those are
    # read in place, in order
    unread = {w for w in set(_FOREIGN_WORD_RE.findall(line)) if not _answer_word(w)}
    if not unread:
        return None
    for run in dict.fromkeys(_LETTER_RUN_RE.findall(line)):  # each run of letters once, in order
        for m in _FOREIGN_WORD_RE.finditer(run):
            if m.group(0) in unread and not _answer_word(_whole_word(run, m.start(), m.end())):
                return m.group(0)
    return None


# A run of letters of any script with their marks: every foreign word, and every letter
# ``_whole_word`` may reach from it, stands inside one.
_LETTER_RUN_RE = re.compile(r"(?:[^\W\d_]|[\u0900-\u0dff\u0e00-\u0e7f])+")


def _answer_word(word: str) -> bool:
    low = word.lower()
    # (an amount's currency or counter, maybe glued to the copula after it: "72 рубля.",
    # "答え：18個", "정답은 94 원입니다.")
    return bool(_ANSWER_PHRASES_RE.fullmatch(word) or _COUNTED_RE.fullmatch(word)) or low in CONNECTIVE_WORDS or low in LABEL_WORDS


def _whole_word(line: str, start: int, end: int) -> str:
    """The word that the letters ``line[start:end]`` stand in, as far as 30 letters each side:
    Vietnamese writes Latin letters beside others (``số``: ``s`` and ``ố``)."""
    lo, hi = start, end
    while lo > max(0, start - 30) and line[lo - 1].isalpha():
        lo -= 1
    while hi < min(len(line), end + 30) and line[hi].isalpha():
        hi += 1
    return line[lo:hi]


# The variable just before the final "=" of a closing line ("... so x = 5").
# (not a unit after a number: "52 minutes - 45 minutes = 7 minutes" names no variable)
_LAST_VARIABLE_RE = re.compile(r"(?<![\w\\])(?<!\d[ \t])([A-Za-z][A-Za-z]{0,20}(?:_\{?\w{1,3}\}?)?)\s*=[\s$*(]*\Z")
# Before a variable, what makes it part of a side rather than the side ("2 * X = 76": X is not
# 76; "110 - x = 60").
_TERM_BEFORE = r"(?<![-+*/\u00d7\u00b7^\u2212][ \t])(?<![-+*/\u00d7\u00b7^\u2212])(?<!\d[ \t])"
# The side just before the final "=" when it is one bare value: "12.0 = 232,131".
_VALUE_SIDE_RE = re.compile(
    r"(?:^|[=\n]|[.!?;,]\s)[\s$*(]*\{?\s*(?:\\(?:mathbf|textbf|text)\s*\{)?\s*"
    r"(?P<value>[-+]?\d[\d,{}]*(?:\.\d+)?)\s*\}?\s*\}?[\s$)]*=[\s$*(]*\Z"
)


# One amount in a unit, then "=" ("She has 5 gallons = 6 gallons."): not a side of arithmetic
# ("15 gallons + 12 gallons =") but a value of its own, equated to the answer.
_UNIT_SIDE_RE = re.compile(
    rf"(?<![\w.,+\u2212-]){_TERM_BEFORE}(?P<value>\d[\d,]*(?:\.\d+)?)[ \t]+(?P<unit>[A-Za-z]{{2,}})[ \t]*=[\s$*(]*\Z")
_UNIT_AFTER_RE = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?[ \t]+([A-Za-z]{2,})")


# A value the sentence states ("is 17", ": 8", "equals 8"), not an operand ("by 4", "17 +").
_STATED_VALUE_RE = re.compile(
    r"(?:\b(?:is|are|was|were|be|equals?|value|answer|result|minimum|maximum|total)\b|:)[ \t$*]*(?P<value>[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?![\d.,]*\d)(?![A-Za-z(])"
    r"(?![ \t$*]*[-+*/\u00d7\u00f7^=])", re.IGNORECASE)
# The closing "=" after a lone variable: "at t = ", "attained at x = ".
# (not a unit after a number, "500 m =", nor a term's part, "ml/g =", "6W =")
_LONE_VARIABLE_SIDE_RE = re.compile(
    r"(?<![\w\\.,)}/*^+\-])(?<!\d[ \t])[A-Za-z](?:_\{?\w{1,3}\}?)?[ \t]*=[\s$*(]*\Z")


_FIRST_NUMBER_RE = re.compile(r"[-+\u2212]?\d[\d,]*(?:\.\d+)?")
# Where a value restated at the final one ends: no digit, letter or operand runs on ("5" is no
# restatement of "5r^5" or "5.5").
_SAME_END = r"(?!\d|[.,]\d|[A-Za-z^_{(]|\\[A-Za-z])"
_SPAN_OPENER_RE = re.compile(r"(?:[ \t$*_]|\\[(\[])*")
_LEADING_NUMBER_RE = re.compile(r"[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")


_SPACED_OPERATOR_RE = re.compile(r"\s[-*/\u00d7\u00f7]\s|\+")


def _stated_before_variable(head: str, value: str) -> tuple[str, str] | None:
    """``The speed is 17 m/s at t = 7.``, ``Result: 8 at t = 7``: the sentence states a value,
    then gives a variable another one as a condition; the closing value is that condition's,
    not the sentence's answer."""
    side = _LONE_VARIABLE_SIDE_RE.search(head)
    if side is None:
        return None
    stated = _STATED_VALUE_RE.search(head, 0, side.start())
    if stated is None or parse_number(stated.group("value")) == parse_number(value):
        return None  # ("Thus the value is 7, at x = 7.": the same value twice)
    if _SPACED_OPERATOR_RE.search(head, stated.end(), side.start()):
        return None  # "is 150 miles for plain A + 200 miles for plain B = 350": one side of a sum
    return HEDGED, f"the closing sentence states another value before it: {stated.group('value')!r}"


def _unit_equated(text: str, start: int) -> tuple[str, str] | None:
    """``5 gallons = 6 gallons``: an amount in the answer's own unit equated to a different
    amount offers both (a conversion, ``2 hours = 120 minutes``, changes the unit)."""
    side = _UNIT_SIDE_RE.search(text, max(0, start - 80), start)
    after = _UNIT_AFTER_RE.match(text, start)
    if side is None or after is None or side.group("unit").lower() != after.group(1).lower():
        return None
    lo = max(text.rfind("=", 0, side.start()) + 1, text.rfind("\n", 0, side.start()) + 1,
             _sentence_start(text, side.start()))
    if _DIGIT_RE.search(text, lo, side.start()):
        return None  # "2 x 10 liters =", "4 x 20 students =": a side of arithmetic
    if parse_number(side.group("value")) == parse_number(after.group(0).split()[0]):
        return None
    return HEDGED, f"a value equated to the answer: {side.group('value')!r}"


def _assigned_twice(paragraph: str) -> tuple[str, str] | None:
    """``x = 1% x = 0``, ``x = \\mathbf{-25}`` / ``% x = 29/11``: the closing line, or a line
    before it in its paragraph, gives the final variable a single value before the final
    one. Two values on offer, whatever joins them (a derivation ``x = 2 + 3`` is no value)."""
    side = _VALUE_SIDE_RE.search(paragraph, max(0, len(paragraph) - 80))
    if side is not None:
        return HEDGED, f"a value equated to the answer: {side.group('value')!r}"
    last = _LAST_VARIABLE_RE.search(paragraph)
    if last is None:
        return None
    line_start = paragraph.rfind("\n", 0, last.start()) + 1
    for m in re.finditer(
        rf"(?<![\w\\]){_TERM_BEFORE}{re.escape(last.group(1))}\s*=\s*(?P<value>[^=\n]*)", paragraph[: last.start()]
    ):
        value = m.group("value").strip(" \t$%.,;")
        if not value or not _TAIL_VALUE_RE.search(value) and "\\" not in value:
            continue
        if m.start() >= line_start or not re.search(r"(?<=[\w}])\s*[-+*/^]", value):
            return HEDGED, f"the closing lines assign {last.group(1)} twice"
    return None


def _continued_line(text: str, line_start: int) -> tuple[str, str] | None:
    """A value alone on its line after a line that runs on into it (no sentence end:
    ``1000% So we get`` / ``0``) closes that line's sentence: a value earlier in the
    sentence is a second one on offer."""
    if line_start < 2:
        return None
    # (read back as far as every other reader of the paragraph: a 1 MB line took 0.4 s)
    prev_start = max(text.rfind("\n", 0, line_start - 1) + 1, line_start - 1 - READ_BACK_CHARS)
    prev = text[prev_start : line_start - 1].rstrip(" \t*$")
    if not prev or not (prev[-1].isalpha() or prev[-1] == ":"):
        return None
    ends = list(_SENTENCE_END_RE.finditer(prev))
    sentence = prev[ends[-1].end() :] if ends else prev
    if sentence.lstrip().startswith("%"):
        # a '%' after no number is no percent sign: it comments out or continues what stands
        # before it ("2908. % So we get" / "30"), so that sentence runs on too
        sentence = prev[ends[-2].end() :] if len(ends) > 1 else prev
    for m in _TAIL_VALUE_RE.finditer(sentence):
        if not _UNIT_POWER_RE.search(sentence, max(0, m.start() - 8), m.start()):
            return HEDGED, f"the closing sentence offers more than one value: {m.group(0)!r}"
    return None
