r"""Answers committed in earlier paragraphs still stand (issue 30, round 17).

A commitment made in a paragraph before the final answer's is an answer offered, whatever
follows it, and must equal the gold on its own::

    $\boxed{21}$                      <- an answer offered
    He had 40-16=24 left, half is 12.
    $\boxed{12}$                      -> two answers: hedged

    **Final Answer: 21**
    Wait, I halved the wrong amount: 24/2 = 12.
    **Final Answer: 12**              -> two answers: hedged

A strict reader of either completion sees two final answers. Words that seem to revise
cannot tell them apart: round 17's first version took "wait", "actually", "recheck" and
"mistake" after an answer as its revision, and a blind attacker (h50) was paid 1,692 times by
"Checking again gives the same value, so this stands.", "Actually, that's right.", "Wait,
that's not wrong.", "The error bars do not matter here." and "没错。" between two answers. So
no word takes an answer back: revise inside a closed reasoning block
(``<think>...</think>``), which is the working and is not read here (the answer after it is
read alone, ``verifiers.math_extract``), or give one answer.

The commitments read in an earlier paragraph: boxes, ``<answer>`` tags, ``####`` lines and
"answer is" clauses (``verifiers.paragraph_commitments``); a line that names the answer in
any language; a conclusion's label (``TL;DR: 450``, ``最终答案：17``, ``Result: 8`` unless under
a ``Step`` line); an answer heading over a value or a list; a JSON member or tag of an answer
key; a table's answer row; a paragraph that is one value (``<final>1.1</final>`` as it
renders, ``#### -30``, ``\frac{11}{3}``) or only a list of values (``1. 67\n2. 77``,
``(i) 66, (ii) 660``); a one-sentence paragraph's alternatives or named value (``It's
either 10 or 9.``, ``Which means -40 is our answer.``).
"""

from __future__ import annotations

import re

from verifiers.answer_values import _clean
from verifiers.commitment_reading import _BOX_RE, _unwrap_box
from verifiers.json_answer import json_answer
from verifiers.labelled_forms import any_form_value
from verifiers.labelled_lines import (
    _ANSWER_LINE_RE,
    _ANSWER_NOUN,
    _ANSWER_NOUN_RE,
    _BOUND_GAP_RE,
    _CANDIDATES_RE,
    _LONE_VALUE_LINE_RE,
    NOUN_CORES,
    READ_BACK_CHARS,
)
from verifiers.paragraph_commitments import _LABEL_HINTS, MAX_COMMITMENTS, _paragraph_values
from verifiers.spelled_numbers import spelled_value
from verifiers.word_hints import folded, holds_any

__all__ = ["shaped_before", "standing_answers"]

# The other shapes that commit to a value in an earlier paragraph (the final paragraph reads
# them by its own rules): a line that names the answer in any language and ends with one value
# ("Cevap: 24", "**Final Answer: 21**"), a conclusion's label ("TL;DR: 450", "最终答案：17"), an
# answer heading over a value alone ("## Answer\n20"), a JSON member or a tag of an answer key
# ('{"answer": 13}', "<final>1.1</final>"), and a table's answer row ("| final answer | -72 |").
_VALUE = r"[-+\u2212]?\$?\d++(?:,\d{3})*+(?:\.\d+)?+%?"  # (possessive: "$40 + 10" reads 40, never 4)
_CONCLUSION_LINE_RE = re.compile(
    r"^[^\w\n]*(?:tl;?dr|final(?:[ \t]+\w+)?|result|summary|in[ \t]+short|short[ \t]+answer|bottom[ \t]+line|conclusion|"
    r"\u6700\u7ec8\w{0,3}|\u6700\u7d42\w{0,3}|\u7ed3\u8bba|\u7d50\u8ad6|\u0438\u0442\u043e\u0433\w*|endergebnis|"
    r"k\u1ebft[ \t]+qu\u1ea3|r\u00e9sultat[ \t]+final|resultado[ \t]+final)"
    rf"[^\n\d]{{0,20}}?[:=\uff1a\u2192][^\w\n]*?(?P<v>{_VALUE})(?![\d.,]\d)(?P<rest>[^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)
_CONCLUSION_MATH_RE = re.compile(
    r"^[^\w\n]*(?:tl;?dr|final(?:[ \t]+\w+)?|result|summary|in[ \t]+short|short[ \t]+answer|bottom[ \t]+line|conclusion|"
    r"\u6700\u7ec8\w{0,3}|\u6700\u7d42\w{0,3}|\u7ed3\u8bba|\u7d50\u8ad6|\u0438\u0442\u043e\u0433\w*|endergebnis|"
    r"k\u1ebft[ \t]+qu\u1ea3|r\u00e9sultat[ \t]+final|resultado[ \t]+final)"
    r"[^\n\d\\$]{0,20}?[:=\uff1a\u2192][ \t*_]*(?P<m>[$\\][^\n]{0,80})$",
    re.IGNORECASE | re.MULTILINE,
)
_MATH_WRAP_RE = re.compile(r"\\\$|\$+|\\[\[\]()]|\\(?:displaystyle|left|right)(?![A-Za-z])")  # (and "\\$", a dollar sign)
_TOP_LEVEL_COMMAS_RE = re.compile(r"[^,()\[\]{}]*(?:,[^,()\[\]{}]*){2,}")
_RELATION_RE = re.compile(r"[=<>\u2264\u2265\u2260]|\\(?:le|ge|leq|geq|neq|ne|approx|sim|in|to)(?![A-Za-z])")
_LETTER_OUTSIDE_COMMAND_RE = re.compile(r"(?<![\\A-Za-z])[^\W\d_]|[|:]")  # (a letter of any script; a table, a label)
_ANSWER_HEADING_RE = re.compile(
    rf"^[ \t#*_>]*(?:final[ \t]+)?{_ANSWER_NOUN}[ \t*_:\uff1a]*\n[ \t*_$]*(?P<v>{_VALUE})[ \t*_$.]*$",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER_LIST_RE = re.compile(
    rf"^[^\w\n]*(?:\w+[ \t]+){{0,2}}{_ANSWER_NOUN}\w*[^\n\d]{{0,20}}?[:=\uff1a][ \t*_$]*\n?"
    rf"(?P<list>(?:[ \t]*(?:[-*\u2022]|\d{{1,2}}[.)])?[ \t*_$]*{_VALUE}[ \t*_$]*(?:[,;&/]|\band\b|\bor\b|\n|$)[ \t]*){{2,}})",
    re.IGNORECASE | re.MULTILINE,
)
_LIST_VALUE_RE = re.compile(rf"(?:^|(?<=[,;&/\n])|\band\b|\bor\b)[ \t]*(?:[-*\u2022][ \t]|\d{{1,2}}[.)][ \t])?[ \t*_$]*(?P<v>{_VALUE})")
# An answer noun of any language and, a few characters on, a value ("الإجابة هي 2402 units.",
# "La risposta è 352", "La réponse est \\frac{1}{8}."): words between that bound it do not.
_NOUN_VALUE_RE = re.compile(
    rf"{_ANSWER_NOUN}(?:nya)?(?![^\W\d_])(?P<gap>[^\n\d\\$.!?,;\u2212-]{{0,12}}?)(?P<v>{_VALUE}|\$[^$\n]{{1,60}}\$|"
    r"[-\u2212]?\\[dt]?frac\{[^{}\n]{1,20}\}\{[^{}\n]{1,20}\}|[-\u2212]?\\sqrt\{[^{}\n]{1,20}\})"
    # (the value ends its clause, a unit word or two after it at most: "answer was 600*2" is
    # an operand, "answer is $3 \cdot 4$" a product)
    r"(?=[ \t*_$]*(?:$|\n|[.!?;,\u3002](?:\s|$))|[ \t]+[A-Z]|(?:[ \t]+[^\W\d_]+){1,2}[ \t*_$]*(?:$|\n|[.!?;,\u3002]))",
    re.IGNORECASE,
)
# A label that commits (an answer noun of any language, a conclusion's word) and what follows
# it on its line up to a sentence end: read as a value of any form (a number with up to two
# words after it, a number in words, LaTeX without prose): "Jawabannya adalah eight.",
# "TL;DR: sixteen", "Conclusion: \\sqrt{51}", "_Summary: 298 units_".
_NAMED_ANY_RE = re.compile(
    rf"(?:{_ANSWER_NOUN}(?:nya)?(?![^\W\d_])|tl;?dr|summary|conclusion|final[ \t]+(?:answer|result|value)|"
    r"\u6700\u7ec8\w{0,3}|\u6700\u7d42\w{0,3}|\u0438\u0442\u043e\u0433\w*)"
    r"(?P<after>[^\n.!?\u3002]{1,90})",
    re.IGNORECASE,
)
_PLAIN_VALUE_RE = re.compile(r"[-+\u2212]?\d[\d,]*(?:\.\d+)?(?:/\d+)?")
_LEAD_SPLIT_RE = re.compile(r"^(?:[ \t:=\uff1a\u2192*_]|[-\u2013\u2014](?=[ \t]))+|[ \t]+")  # ("Answer \u2014 1")
_NUMBER_WORDS_AFTER_RE = re.compile(rf"(?P<v>{_VALUE})(?:[ \t]+[^\W\d_]+){{0,2}}")
_PARTICLE_RE = re.compile(r"[ \t]*(?:[^\W\d_A-Za-z\u00c0-\u024f]{1,4}|\u0939\u0948)[ \t]*\Z")  # "です", "है"


def _any_form(rest: str) -> str | None:
    """``rest`` as one value of any form, or None (prose)."""
    rest = _PARTICLE_RE.sub("", rest.strip(" \t*_")).strip(" \t*_$")
    if not rest:
        return None
    number = _NUMBER_WORDS_AFTER_RE.fullmatch(rest)
    if number is not None:
        return number.group("v")
    if rest.startswith("\\") or "$" in rest:
        return _lone_math(rest)
    side = spelled_value(rest) or any_form_value(rest)  # "eight", "4 / 2" (as 2)
    return side if side is not None and _PLAIN_VALUE_RE.fullmatch(side) else None


_KEYED_VALUE_RE = re.compile(
    r"\"(?:final[ _-]?)?(?:answer|result)\"[ \t]*:[ \t]*\"?(?P<v>[^\"\n,}]{1,80})"
    r"|<(?P<tag>[A-Za-z_]*(?:answer|final|result|solution)[A-Za-z_]*)>\s*(?P<t>[^<\n]{1,80}?)\s*</(?P=tag)>"
    rf"|^[ \t]*\|[ \t*_]*(?:final[ \t]+)?{_ANSWER_NOUN}[ \t*_:]*\|[ \t*_$]*(?P<r>{_VALUE})[ \t*_$]*\|[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
# (bold's "**" closing the value is no product: "**TL;DR: 7**")
_OPERAND_RE = re.compile(r"[ \t$]*(?:\*\*|__)?[ \t$]*(?:[-+/\u00d7\u00f7^=<>(]|\*[ \t]*[\d(])")
_STEP_LINE_RE = re.compile(r"^[^\w\n]*(?:step|case|part|stage|phase)[ \t]*\d", re.IGNORECASE | re.MULTILINE)
# A fence line of a code block (its language name too): the block's lines are read as lines.
_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:```|~~~)[\w+-]*[ \t]*(?:\n|\Z)", re.MULTILINE)
# Substrings one of which every commitment holds, in ``folded`` text: a paragraph without one
# is not read.
_HINTS = ("\\boxed", "\\fbox", "<answer>", "####", *(h.lower() for h in _LABEL_HINTS), *NOUN_CORES,
          "tl;dr", "tldr", "final", "summary", "in short", "bottom line", "conclusion", "result", "solution",
          "\u6700\u7ec8", "\u6700\u7d42", "\u7ed3\u8bba", "\u7d50\u8ad6", "\u0438\u0442\u043e\u0433", "ergebnis", "k\u1ebft qu\u1ea3")
# A paragraph that may commit holds a hint or a digit (in ``folded`` text, one C scan).
_CANDIDATE_RE = re.compile("|".join(map(re.escape, _HINTS)) + r"|\d")
# Paragraphs that may commit, read back at most: a longer run of them is a wall, not a solution.
_MAX_PARAGRAPHS = 2_000
# How far back before the final paragraph earlier paragraphs are read (a tenth of a megabyte:
# more than any answer after a closed reasoning block holds).
_WINDOW = 100_000


def _other_commitments(paragraph: str, *, earlier: bool = True) -> list[str]:
    """The values of the shapes above in one earlier paragraph; with ``earlier=False`` (the
    final paragraph, whose answer lines and clauses its own rules read) the conclusion labels,
    JSON members, tags and table rows only."""
    # (an operator right after the value makes it an operand: "Final step: 24/2 = 12"; what
    # follows it otherwise runs the next sentence on: "TL;DR: 2901 13 weeks have ...")
    # ("Result: 24" under "Step 1" is the step's result, not an answer)
    steps = _STEP_LINE_RE.search(paragraph) is not None
    values = [m.group("m") for m in _CONCLUSION_MATH_RE.finditer(paragraph) if _lone_math(m.group("m"))]
    values += [m.group("v") for m in _CONCLUSION_LINE_RE.finditer(paragraph)
              if not _OPERAND_RE.match(m.group("rest")) and not (steps and m.group(0).lstrip("*_# \t>-").lower().startswith("result"))]
    values += [m.group("v") or m.group("t") or m.group("r") for m in _KEYED_VALUE_RE.finditer(paragraph)]
    if not earlier:
        return [_clean(v.strip('"')) for v in values]
    values += [m.group("v") for m in _ANSWER_HEADING_RE.finditer(paragraph)]
    for m in _ANSWER_LIST_RE.finditer(paragraph):  # "Answers: 16, 18", "answer:\n  - 500\n  - 501"
        values += [item.group("v") for item in _LIST_VALUE_RE.finditer(m.group("list").strip())]
    values += [m.group("value") for m in _ANSWER_LINE_RE.finditer(paragraph) if not _BOUND_GAP_RE.search(m.group("gap"))]
    values += [m.group("v").strip("$") for m in _NOUN_VALUE_RE.finditer(paragraph)
               if not _BOUND_GAP_RE.search(m.group("gap")) and (m.group("v")[:1].isdigit() or _lone_math(m.group("v")))]
    for m in _NAMED_ANY_RE.finditer(paragraph):
        # the value after the label, its colon, and up to two words of copula ("adalah", "is")
        words = _LEAD_SPLIT_RE.sub(" ", m.group("after")).split(" ")
        for k in range(3):
            gap, rest = " ".join(words[:k]), " ".join(words[k:])
            if len(gap) > 12 or _BOUND_GAP_RE.search(gap):
                break
            value = _any_form(rest)
            if value is not None:
                values.append(value)
                break
    return [_clean(v.strip('"')) for v in values]


# A paragraph that only lists values, each on its line: bare or after a list's marker ("1. 67",
# "- 5", "(b) 21", "Q2: -1430"), or after labels of which one names the answer ("answer: 7" /
# "result: 17"), and no arithmetic: a list of answers, each offered.
_LISTED_RE = re.compile(
    r"[ \t>*_]*(?:(?:\d{1,2}[.)]|\(?[a-z]\)|[a-h]\.|\(?(?:i{1,3}|iv|vi{0,3}|ix|x)[.)]|[-*\u2022]|q\d{1,2}[:.)]?|"
    r"(?:part|question|problem)[ \t]*\(?\w\)?[:.)]?)[ \t]+)?"
    rf"[*_$ \t]*(?P<v>{_VALUE})[*_$ \t.]*", re.IGNORECASE)
_SHORT_PARAGRAPH = 200
_NAMED_VALUE_RE = re.compile(
    rf"(?P<v>{_VALUE})[ \t*_$]*(?:is|was|would\s+be)[ \t]+(?:our|the|my)[ \t]+(?:final[ \t]+)?answer"
    rf"|(?:final|required|resulting)[ \t]+(?:value|amount|total|result|number)[ \t]+(?:is|of|=|:)[ \t*_$]*(?P<w>{_VALUE})"
    r"(?![\d.,]\d)(?![ \t$*_]*[-+*/\u00d7\u00f7^=(])",  # (not an operand: "a final total of $40 + $10")
    re.IGNORECASE)
# A paragraph that is one short concluding sentence with one value ("Therefore 63.", "So, 9").
_SHORT_CONCLUSION_RE = re.compile(
    r"[*_ \t>]*(?:therefore|thus|hence|so|finally|total|in[ \t]+total|altogether|overall)[,:]?[ \t*_$]*"
    rf"(?P<v>{_VALUE})[ \t*_$]*[.!]?", re.IGNORECASE)
_PART_MARK_RE = re.compile(r"[ \t*_]*\(?(?:[a-h]|i{1,3}|iv|vi{0,3})[.)]", re.IGNORECASE)
_LABELLED_RE = re.compile(rf"[ \t>*_-]*(?P<label>[^\W\d][^\n:=\d]{{0,40}}?)[ \t*_]*[:\uff1a=][ \t*_$]*(?P<v>{_VALUE})[ \t*_$.]*")


def _listed_values(paragraph: str) -> list[str]:
    lines = [line for line in paragraph.strip().split("\n") if line.strip()]
    if len(lines) == 1 and _PART_MARK_RE.match(lines[0]):
        # "(i) 66, (ii) 660", "a) 216; b) 218", "(a) 5 (b) 6"
        lines = re.split(r"(?:[,;][ \t]*|[ \t]+)(?=\(?[a-z0-9]{1,3}[.)])", lines[0], flags=re.IGNORECASE)
    if len(lines) < 2:
        return []
    listed = [_LISTED_RE.fullmatch(line) for line in lines]
    if all(listed):
        return [m.group("v") for m in listed]  # type: ignore[union-attr]
    labelled = [_LABELLED_RE.fullmatch(line) for line in lines]
    if all(labelled) and any(_ANSWER_NOUN_RE.search(m.group("label")) for m in labelled):  # type: ignore[union-attr]
        return [m.group("v") for m in labelled]  # type: ignore[union-attr]
    return []


def _unboxed(value: str) -> str:
    """A clause's value that is a box ("the answer is $\\boxed{5}$.") as the box's content."""
    if not _BOX_RE.match(value):
        return value
    content, why = _unwrap_box(value)
    return value if why is not None else _clean(content)


def shaped_before(text: str, start: int) -> list[str]:
    """The values of the shapes above (a JSON member, a conclusion's label, an answer line) in
    the final answer's paragraph before ``start``: '{"answer": 13} ...\n#### 3' offers 13."""
    para_start = text.rfind("\n\n", 0, start) + 1
    head = text[max(para_start, start - READ_BACK_CHARS) : start]
    return _other_commitments(head, earlier=False) if holds_any(folded(head), _HINTS) else []


def _lone_math(text: str) -> str | None:
    """``text`` as one math value when it is one: a digit, no relation, no letter outside a
    command (``\\frac{11}{3}``, ``$(2, 3)$``, ``\\[ \\sqrt{2} \\]``; not ``x^2 + 1``)."""
    inner = _MATH_WRAP_RE.sub("", text).strip(" \t*_.")
    if not inner or len(inner) > 80 or not any(c.isdigit() for c in inner) or _RELATION_RE.search(inner):
        return None
    if inner.count("{") != inner.count("}") or "\\boxed" in inner:
        return None  # a piece of math cut at a "!" or a sentence stop, or a box read on its own
    if _TOP_LEVEL_COMMAS_RE.fullmatch(inner):
        return None  # "17, 26, 35, 44": an enumeration of the working (a tuple is bracketed)
    return None if _LETTER_OUTSIDE_COMMAND_RE.search(inner) else inner


def _read_paragraph(paragraph: str, labelled: bool) -> list[str]:
    """The values one earlier paragraph commits to (module doc); without ``labelled``, only its
    boxes, tags, ``####`` lines, answer clauses and JSON answers."""
    values: list[str] = []
    if not labelled:
        values += _paragraph_values(paragraph, len(paragraph.rstrip()), labelled_lines=False, look_back=False, final=False)
        return values
    shown = _FENCE_LINE_RE.sub("", paragraph).strip() if "```" in paragraph or "~~~" in paragraph else paragraph.strip()
    lone = _LONE_VALUE_LINE_RE.fullmatch(shown)
    if lone is not None:  # "<final>1.1</final>" as it renders: a value alone in its paragraph
        sign = shown[lone.start("value") - 1 : lone.start("value")] if lone.start("value") else ""
        values.append((sign if sign in ("-", "+", "\u2212") else "") + _clean(lone.group("value")))  # ("#### -30")
    elif (math := _lone_math(shown)) is not None:  # "\\frac{11}{3}" alone in its paragraph
        values.append(math)
    elif "\n" in shown or _PART_MARK_RE.match(shown):
        values += _listed_values(shown)
    elif (said := _SHORT_CONCLUSION_RE.fullmatch(shown)) is not None:  # "Therefore 63."
        values.append(said.group("v"))
    elif len(shown) <= _SHORT_PARAGRAPH and "\n" not in shown:
        # a paragraph of one short sentence: its alternatives ("It's either 10 or 9.") and its
        # value named the answer ("Which means -40 is our answer.", "the required value is -15")
        for m in _CANDIDATES_RE.finditer(shown):
            values += [v for v in m.group("a", "b", "c", "d") if v is not None]
        values += [m.group("v") or m.group("w") for m in _NAMED_VALUE_RE.finditer(shown)]
    if holds_any(folded(paragraph), _HINTS):
        values += _paragraph_values(paragraph, len(paragraph.rstrip()), labelled_lines=False, look_back=False, final=False)
        values += _other_commitments(paragraph)
        if shown.endswith(("}", "```")):  # '```json\n{"answer": 21}\n```'
            js = json_answer(shown)
            if js is not None and (js.value is not None or js.problem is not None):
                values.append(js.value or "\\ldots")  # (several answers in one object: no one value)
    return values


def standing_answers(text: str, start: int, *, labelled: bool = True) -> list[str]:
    r"""The values of the commitments in the paragraphs before the one that holds ``start``
    (the final answer's), latest first; ``\ldots`` at the end when more stand than one answer
    can be, or than can be read (paragraphs are
    read back ``_WINDOW`` characters, each paragraph's last ``READ_BACK_CHARS``; a hint of a
    commitment before that refuses). Without ``labelled`` (countdown, whose ``Result: 4``
    names the target) only boxes, tags, ``####`` lines and answer clauses commit.

    >>> standing_answers("\\boxed{21}\n\nSo 24/2 = 12.\n\n\\boxed{12}", 30)
    ['21']
    >>> standing_answers("\\boxed{21}\n\nWait, 24/2 = 12.\n\n\\boxed{12}", 30)  # no word takes it back
    ['21']
    >>> standing_answers("TL;DR: 450\n\nRobert has 25 + 20 = 45 balls.\nANSWER: 45", 45)
    ['450']
    """
    para_start = text.rfind("\n\n", 0, start) + 1
    if para_start <= 0:
        return []
    window = max(0, para_start - _WINDOW)
    low = folded(text, window, start)
    if len(low) != start - window:  # (a character whose lowercase is longer: read it as is)
        low = text[window:start].lower()
    if window > 0 and holds_any(folded(text, 0, window), _HINTS):
        return ["\\ldots"]  # a commitment may stand further back than is read
    lo = window
    # the paragraphs of text[lo:para_start] that may commit (a hint or a digit), found in C
    spans: list[tuple[int, int]] = []
    hit = _CANDIDATE_RE.search(low, lo - window, para_start - window)
    while hit is not None:
        at = window + hit.start()
        cut = text.rfind("\n\n", lo, at)
        begin = lo if cut < 0 else cut + 2
        end = text.find("\n\n", at, para_start)
        end = para_start if end < 0 else end
        spans.append((begin, end))
        if len(spans) > _MAX_PARAGRAPHS:
            return ["\\ldots"]  # more paragraphs that may commit than a solution holds
        hit = _CANDIDATE_RE.search(low, end - window, para_start - window) if end < para_start else None
    values: list[str] = []
    for begin, end in reversed(spans):
        if end - begin > READ_BACK_CHARS:  # a paragraph longer than a solution's: its end is read
            if holds_any(folded(text, begin, end - READ_BACK_CHARS), _HINTS):
                return [*values, "\\ldots"]  # and a commitment may stand before that
            begin = end - READ_BACK_CHARS
        # (emphasis around a sentence ends it: "_In summary, the answer is 55^\\circ._")
        read = (_unboxed(v).rstrip(" _*.") or v for v in _read_paragraph(text[begin:end], labelled))
        values = list(dict.fromkeys([*values, *read]))
        if len(values) > MAX_COMMITMENTS:
            return [*values, "\\ldots"]  # a wall of commitments: more answers than one can be
    return values
