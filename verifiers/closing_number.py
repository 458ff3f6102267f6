r"""The ``closing`` value when a completion commits to none (issue 30): its last number, read
by ``_bare_number`` for ``verifiers.math_extract``'s fallback.

The number counts as the answer only as itself: glued into a word or a larger expression
(``x_5``, ``1/2``), the right operand of an operation (``x + 332``), after a relation that
bounds rather than states it (``x \neq 5``, ``< 5``, any Unicode math sign but ``=`` and the
"therefore" signs), closing a range (``17-18``) or under an approximation it states nothing
(``malformed`` or ``hedged``). A last line or sentence that checks the working (``Check: 174 +
3 = 177 ✓``) states no value of its own: the number is read before the checks, which are
then read as its tail.
"""

from __future__ import annotations

import re
import unicodedata

from verifiers.answer_tail import confidence_start, hedge_after
from verifiers.answer_values import _clean
from verifiers.commitment_reading import _WORD_RE, _token_around
from verifiers.exact_numbers import parse_number, parse_quantity
from verifiers.labelled_lines import _ANSWER_NOUN
from verifiers.types import HEDGED, MALFORMED, FinalAnswer
from verifiers.unboxed_answer import _DIGIT_RE, _approx_before, _closing_form, is_hedge, last_number

# Any math sign of Unicode's blocks but "=" and the signs of "therefore" (an allow-list: "T ∉ {5}",
# "x ≮ 5", "x ⊄ 5" relate, they do not state).
_STATING_SIGNS = "=\u21d2\u2192\u2234\u2261"


_MATH_SIGNS = "".join(
    re.escape(chr(c)) for lo, hi in ((0x2190, 0x2300), (0x27C0, 0x2800), (0x2900, 0x2B00))
    for c in range(lo, hi) if unicodedata.category(chr(c)) == "Sm" and chr(c) not in _STATING_SIGNS
)


_RELATION_BEFORE_RE = re.compile(
    r"(?:!=|=\u0338|\\neq?|\\not\s*=|\\[lg]eq?q?|\\[lg]t|\\approx|\\sim|\\simeq|<|(?<![\w\"'/])>"
    rf"|[\u00ac{_MATH_SIGNS}])[\s${{(]*$"
)


# The last number as the right operand of an operation on a variable, a number or a bracket
# ("Her balance = x + 332.", "2 × 332"): part of a larger expression, no value stated
# ("**332**" is bold, "-332" and "is +332" signs).
_OPERAND_BEFORE_RE = re.compile(
    r"(?:(?:(?<![A-Za-z\\])[A-Za-z]|\d|[)}\]])\s*(?:\+|\s[-\u2212*/]\s)"
    r"|[\u00d7\u00f7\u00b7]|\\(?:times|cdot|div)(?![A-Za-z]))[\s${(]*$"
)


# Glued to these, a digit belongs to a larger expression or a word ("1/2" is not 2).
_GLUE = set("\\{}^_/") | {chr(c) for c in range(ord("A"), ord("Z") + 1)}

_GLUE |= {chr(c) for c in range(ord("a"), ord("z") + 1)}


# A last line that checks the working ("Check: 174 + 3 = 177 ✓", "Verification: ..."): it
# verifies the value stated before it and states none of its own.
_CHECK_OPENING_RE = re.compile(
    r"[ \t*_#>-]*(?:(?:sanity[ \t]+|double[- ]?)?check(?:ing)?\b|verif(?:y|ying|ication|ied)\b|"
    r"[\u2713\u2714\u2705])",
    re.IGNORECASE,
)
# A sentence gap followed by a check opening: the first one found in one regex pass.
_CHECK_GAP_RE = re.compile(r"[.!?][ \t]++(?=" + _CHECK_OPENING_RE.pattern + ")", re.IGNORECASE)
_CHECK_MARKS = "\u2713\u2714\u2705"


_SENTENCE_GAP_RE = re.compile(r"[.!?][ \t]+")


_MAX_CHECK_LINES = 8  # more checks than this at the end: the value before them is not read


def _checks_start(text: str) -> int:
    """Where the checks that end ``text`` start (each the last line or a sentence on it that
    opens with "Check:", "Verification:" or a check mark), or 0 when it ends in none."""
    end = 0
    cut = len(text)
    for _ in range(_MAX_CHECK_LINES):
        tail = text[:cut].rstrip()
        line_start = tail.rfind("\n") + 1
        # a sentence checks when it opens with a check word or mark, or when a check mark with
        # no number after it ends the line after its start ("... = 177 ✓"): the last mark
        # is found once, so a line of 100,000 sentences costs one pass, not one per sentence
        mark = max(tail.rfind(c, line_start) for c in _CHECK_MARKS)
        if mark >= 0 and _DIGIT_RE.search(tail, mark):
            mark = -1
        start = 0
        if line_start > 0 and (mark >= 0 or _CHECK_OPENING_RE.match(tail, line_start)):
            start = line_start
        else:
            first = _SENTENCE_GAP_RE.search(tail, line_start)
            if first is not None and first.end() <= mark:
                start = first.end()
            elif (opening := _CHECK_GAP_RE.search(tail, line_start)) is not None:
                start = _SENTENCE_GAP_RE.match(tail, opening.start()).end()  # type: ignore[union-attr]
        if start == 0:
            break
        end = cut = start
    return end


_LIST_NUMBER_LINE_RE = re.compile(r"^[ \t]*(\d{1,2})[.)][ \t*]*\Z", re.MULTILINE)


def _empty_list_item(text: str) -> bool:
    """Whether ``text`` ends with a list item's number alone (``...\n2. 34*2=68\n3.``): the
    next item of a numbered list, left empty, is no answer."""
    tail = text.rstrip()
    last = _LIST_NUMBER_LINE_RE.search(tail, tail.rfind("\n") + 1)
    if last is None:
        return False
    n = int(last.group(1))
    before = tail[: last.start()].rstrip("\n")
    previous = before[before.rfind("\n") + 1 :].lstrip(" \t")
    return n > 1 and previous.startswith((f"{n - 1}.", f"{n - 1})"))


# A table's last row that labels the answer: "| Answer | 708 |" (two cells, the first an
# answer's label, the second the value); its closing pipe is no part of the answer's sentence.
_ANSWER_ROW_RE = re.compile(
    rf"^[ \t]*\|[ \t*_]*(?:(?:final|the)[ \t]+)?(?:{_ANSWER_NOUN}|total|result)[ \t*_:]*\|[ \t]*[^|\n]{{1,80}}?(?P<close>[ \t]*\|[ \t]*\Z)",
    re.IGNORECASE | re.MULTILINE)


# A table's rule line ending the text ("| **Final answer** | **677** |\n|---|---|").
_TRAILING_RULE_RE = re.compile(r"\n[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?[ \t]*\Z")
# A one-column table headed by an answer's label: "| Answer |\n|---|\n| 45 |".
_ANSWER_COLUMN_RE = re.compile(
    rf"^[ \t]*\|[ \t*_]*(?:(?:final|the)[ \t]+)?(?:{_ANSWER_NOUN}|total|result)[ \t*_:]*\|[ \t]*\n"
    r"[ \t]*\|[ \t]*:?-{3,}:?[ \t]*\|[ \t]*\n[ \t]*\|[ \t]*[^|\n]{1,80}?(?P<close>[ \t]*\|[ \t]*\Z)",
    re.IGNORECASE | re.MULTILINE)


def _bare_number(text: str) -> FinalAnswer:
    if text.endswith("|"):
        rule = _TRAILING_RULE_RE.search(text, max(0, len(text) - 200))
        text = text if rule is None else text[: rule.start()]
    row = None
    if text.endswith("|"):
        tail = max(0, len(text) - 300)
        row = _ANSWER_ROW_RE.search(text, tail) or _ANSWER_COLUMN_RE.search(text, tail)
    if row is not None:
        text = text[: row.start("close")]
    if _empty_list_item(text):
        return FinalAnswer(None, "last_number", len(text), (MALFORMED, "the text ends with an empty list item's number"))
    confidence = confidence_start(text)
    if confidence is not None:
        # "So she has 420 apples. Confidence: 90%": the answer is read before the confidence,
        # which its tail reads as no second value
        found = _last_value(text[:confidence])
        if found.answer is None or found.problem is not None:
            return found
        return FinalAnswer(found.answer, found.source, found.end, hedge_after(text, found.end, (found.answer,)),
                           unit=found.unit)
    checks = _checks_start(text)
    if checks > 0:
        # "In total Ravi has 174 apples.\nCheck: 174 + 3 = 177 ✓": the answer is 174, and
        # the check lines are read as its tail (a check that uses it or results in it)
        found = _last_value(text[:checks])
        if found.answer is None or found.problem is not None:
            return found
        return FinalAnswer(found.answer, found.source, found.end, hedge_after(text, found.end, (found.answer,)))
    return _last_value(text)


def _last_value(text: str) -> FinalAnswer:
    found = last_number(text)
    if found is None:
        return FinalAnswer(None, "none")
    answer, end = found
    start = end - len(answer)
    if answer == text[start:end] and not is_hedge(answer):
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if before in _GLUE or after in _GLUE or (after == "." and text[end + 1 : end + 2] in _GLUE):
            lo, hi = _token_around(text, start, end)
            token = _clean(text[lo:hi].strip("\"'()[]!?"))
            if parse_number(token) is None and (_WORD_RE.search(token) or not token):
                why = f"the last number is part of a word or a larger expression: {token[:40]!r}"
                return FinalAnswer(None, "last_number", hi, (MALFORMED, why))
            answer, start, end = token, lo, hi
    # "x \neq 5" or "$< 5$" ends with 5 but does not state it: keep the relation, so the
    # answer reads as what it is (and scores 0). A ">" closing an HTML tag is no relation.
    if _OPERAND_BEFORE_RE.search(text, max(0, start - 24), start):
        why = "the last number is an operand of a larger expression"
        return FinalAnswer(None, "last_number", end, (MALFORMED, why))
    relation = _RELATION_BEFORE_RE.search(text, max(0, start - 24), start)
    if relation is not None:
        answer = text[relation.start() : end].replace("$", "").strip()
    problem = (
        _closing_form(text, start)
        or hedge_after(text, end, (answer,))
        or _approx_before(text, start)
    )
    if problem is None and _RANGE_BEFORE_RE.search(text, max(0, start - 60), start):
        problem = HEDGED, "a range of values, not one"
    if problem is None and _DOLLAR_BEFORE_RE.search(text, max(0, start - 3), start) and "$" not in text[end:text.find("\n", end) % (len(text) + 1)]:
        # "So the cost is $186.": a dollar sign before the number, no math span closing after it
        return FinalAnswer(answer, "last_number", end, problem, unit="dollars")
    unit = _UNIT_WORD_AFTER_RE.match(text, end) if problem is None else None
    if unit is not None and (quantity := parse_quantity(f"{answer} {unit.group(1)}")) is not None and quantity[1]:
        # "Thus the length is 36 kg.": the unit that ends the sentence is the answer's, and a
        # gold in grams is another amount ("\boxed{36 kg}" is read with its unit too)
        return FinalAnswer(answer, "last_number", end, problem, unit=unit.group(1))
    return FinalAnswer(answer, "last_number", end, problem)


# A unit right after a box, in the visible text (unit markup is spaces there: "\boxed{12}\text{
# km} in total", "$\boxed{15} cents$", "\boxed{9368}\,\mathrm{m}^2", "\boxed{12} km."), with its
# power ("^2", "square meters", "meters squared"). "in" is inches only where its sentence
# ends ("\boxed{12} in total" names no unit).
_POWER = r"(?:[ \t]*+\$?[ \t]*+\^[ \t]*+(?:\{[ \t]*-?[ \t]*\d[ \t]*\}|-?\d))"
_BOX_UNIT_RE = re.compile(
    rf"[ \t~$]*+(?:(?P<pre>square|sq|cubic|cu)[ \t]+)?(?P<word>[A-Za-z]{{1,12}})(?![A-Za-z])(?P<power>{_POWER})?"
    r"(?:[ \t]+(?P<post>squared|cubed)\b)?"
    # a product and a rate: "kg m/s", "N\cdot m", "kg/s", "km per hour", "m/s^2", "km/h/h",
    # "m per second squared" (all of it is the unit; a short symbol joins by a space only where
    # a "/", "^" or the sentence's end follows it: "\boxed{12} m in total" is metres)
    rf"(?P<rate>(?:(?:[ \t]*+(?:\\cdot|\u00b7|\*)[ \t]*+|[ \t]++)[A-Za-z]{{1,3}}(?![A-Za-z])(?=[ \t]*(?:/|\^|[.!;,]*[ \t]*(?:\n|\Z))){_POWER}?)*"
    rf"(?:[ \t]*+(?:/|per[ \t]+)[ \t]*+[A-Za-z]{{1,12}}(?![A-Za-z]){_POWER}?(?:[ \t]+(?:squared|cubed)\b)?){{0,3}})",
    re.IGNORECASE,
)
_POWER_WORDS = {"square": "2", "sq": "2", "squared": "2", "cubic": "3", "cu": "3", "cubed": "3"}
_TIME_ABBREVIATIONS = {"hour": "h", "hours": "h", "hr": "h", "second": "s", "seconds": "s", "sec": "s",
                       "minute": "min", "minutes": "min"}
_SENTENCE_END_RE = re.compile(r"[ \t$*_]*[.!;,]*[ \t*_]*(?:\n|\Z)")


# A percent or degree sign right after the box ("$\boxed{289}$\%", "\boxed{12}^\circ").
_SIGN_AFTER_BOX_RE = re.compile(
    r"[ \t~$]*+(?:(?P<percent>\\?%|(?i:per[ \t]?cent|pct)\b)|(?P<degree>\u00b0|\^[ \t]*(?:\\circ|\{[ \t]*\\circ[ \t]*\}))"
    r"|(?P<times>\u00d7|\\times\b)|(?P<bps>(?i:bps|basis[ \t]+points?)\b)"
    r"|(?P<permille>\u2030|(?i:per[ \t]?mill?e?|permil)\b))")


def unit_after_box(text: str, end: int) -> str | None:
    r"""The unit written right after a box that ends at ``end`` in the visible text, as LaTeX
    to put after the box's value (``\text{ km}``, ``\text{ m}^2``), or None when no unit stands
    there: the value is compared with its unit, as ``\boxed{12 \text{ km}}`` is (a gold in
    metres is another amount; a gold with no unit ignores it)."""
    sign = _SIGN_AFTER_BOX_RE.match(text, end)
    if sign is not None:  # a percent is a unit of its own beside another ("289%" is not "289 m")
        # ("\boxed{201} \u00d7" is so many times, "453 bps" basis points: no amount in the gold's unit)
        return {"percent": "\\%", "degree": "^\\circ", "times": "\\text{ times}", "bps": "\\text{ bps}",
                "permille": "\\text{ permille}"}[sign.lastgroup]  # type: ignore[index]
    m = _BOX_UNIT_RE.match(text, end)
    if m is None:
        return None
    unit = m.group("word")
    if unit == "in" and _SENTENCE_END_RE.match(text, m.end()) is None:
        return None
    quantity = parse_quantity(f"1 {unit}")
    if quantity is None:
        return None
    if not quantity[1]:  # a count noun ("\boxed{62} marbles"): not 62 cm, where the gold names cm
        # (only where the sentence ends on it: "$\boxed{90^\circ}$ is the answer" names no noun)
        return f"\\text{{ {unit}}}" if _SENTENCE_END_RE.match(text, m.end("word")) and not m.group("pre") else None
    word = m.group("pre") or m.group("post")  # "square meters", "meters squared": m^2
    power = re.sub(r"[\s${}^]", "", m.group("power") or "") or (_POWER_WORDS[word.lower()] if word else "")
    rate = re.sub(r"\bper\b", "/", " ".join(re.sub(r"[${}]|\\cdot|\u00b7|\*", " ", m.group("rate") or "").split()), flags=re.IGNORECASE)
    rate = re.sub(r" squared\b", "^2", re.sub(r" cubed\b", "^3", rate))
    rate = re.sub(r" ?/ ?", "/", rate)
    rate = (" " + rate) if rate and rate[0] != "/" else rate
    if rate.count("/") == 1 and rate.startswith("/"):  # "km per hour" as the comparator spells it ("km/h")
        over, caret, up = rate[1:].partition("^")
        short = _TIME_ABBREVIATIONS.get(over.lower(), over) + caret + up  # "m/second^2" is "m/s^2"
        for spelled in (f"{unit}{rate}", f"{unit}/{short}", *([] if caret else [f"{unit} per {over}"])):
            known = parse_quantity(f"1 {spelled}")
            if known is not None and known[1]:
                unit, rate = spelled, ""
                break
    return f"\\text{{ {unit}{rate}}}" + (f"^{{{power}}}" if power else "")


_DOLLAR_BEFORE_RE = re.compile(r"\\?\$[ \t]?\Z")
_UNIT_WORD_AFTER_RE = re.compile(
    r"[ \t]+([A-Za-z]{1,12}(?:/[A-Za-z]{1,6}|[ \t]+[A-Za-z]{1,12}|[ \t]+per[ \t]+[A-Za-z]{1,12})?)[*_ \t]*+"
    r"(?:[.!;,]+[*_ \t]*+)?(?:\n|\Z)")


# "17-18 dollars", "17\u201318", "between 17 and 18": the last number closes a range.
_RANGE_BEFORE_RE = re.compile(
    r"(?:\d\s*[-\u2013\u2014]|\bbetween\s+\$?\d[\d,.]*(?:\s+[A-Za-z]+)?\s+and)\s*\$?\s*\Z",
    re.IGNORECASE,
)
