r"""Answers committed in earlier paragraphs that still stand (issue 30, round 17).

A commitment -- a box, an ``<answer>`` tag, a ``####`` line, an "answer is" clause (the
``paragraph`` rule's forms) -- made in a paragraph before the final answer's still stands
unless a revision said in words comes after it::

    $\boxed{21}$                      <- stands: nothing takes it back
    He had 40-16=24 left, half is 12.
    $\boxed{12}$                      -> two answers: hedged

    **Final Answer: 21**
    Wait, I halved the wrong amount: 24/2 = 12.     <- a revision: 21 is taken back
    **Final Answer: 12**              -> 12

Reasoning alone does not revise: a strict reader of the first completion sees two final
answers and cannot tell which one the writer meant. A revision is a word that says the
earlier work was wrong or is being redone (``_TAKEN_BACK_RE``: "wait", "actually", "mistake",
"recheck", "let me redo", ...), not one that confirms it ("All steps check out."). The words
between the commitment and the final answer are read, the final paragraph's included. A
closed reasoning block (``<think>...</think>``) is the working and is not read here (the
answer after it is read alone, ``verifiers.math_extract``).
"""

from __future__ import annotations

import re

from verifiers.answer_values import _clean
from verifiers.commitment_reading import _BOX_RE, _unwrap_box
from verifiers.json_answer import json_answer
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
from verifiers.word_hints import folded, holds_any

__all__ = ["shaped_before", "standing_answers"]

# A revision said in words: the earlier work was wrong, or is being done again.
_TAKEN_BACK_RE = re.compile(
    # an interjection or a redo that opens a clause ("Wait, ...", "Hmm.", "Let me recheck:",
    # "Actually it is"; "We wait 5 minutes" and "used instead of" revise nothing)
    r"(?:^|(?<=[\n.!?:;,\u3002\uff0c\uff1a])|(?<=[.!?:;,)] ))[ \t*_>\"'(]*+"
    r"(?:(?:wait|actually|oops|sorry|hmm+|no|nope|correction|scratch\s+that|on\s+second\s+thought|"
    r"let\s+me\s+(?:re|double|check|verify|try\s+again|fix|correct)\w*|double[- ]?check\w*|"
    r"re-?(?:count|check|calculat|consider|evaluat|examin|comput|do|did|work|visit|think|read|try)\w*|"
    r"(?:checking|trying|looking|thinking)\s+(?:it\s+|this\s+)?again|"
    r"doch\s+nicht|plut\u00f4t|attend(?:s|ez)|en\s+realidad|espera|warte|aspetta|bekle|tunggu|ch\u1edd|"
    r"\u043f\u043e\u0434\u043e\u0436\u0434\u0438|\u0627\u0646\u062a\u0638\u0631)\b"
    r"|\u7b49\u7b49|\u7b49\u4e00\u4e0b|\u5f85\u3063\u3066|\u3044\u3084|\uc7a0\uae50|\u0930\u0941\u0915\u094b)"
    # or, anywhere, words that say the work was wrong ("I made a mistake", "that is incorrect")
    r"|\b(?:mistakes?|mistaken|erred|incorrect(?:ly)?|wrong(?:ly)?|miscalculat\w*|misread|miscount\w*|"
    r"mistook|miscomput\w*|(?:made|make|an?|my|the)\s+errors?|not\s+right|not\s+quite|falsch|fehler|erreur|"
    r"equivoqu\w*|errado|sbagliat\w*|hata|salah|sai\s+r\u1ed3i|\u043e\u0448\u0438\u0431\w*|"
    r"\u043d\u0435\u043f\u0440\u0430\u0432\u0438\u043b\w*|\u062e\u0637\u0623)\b"
    r"|\ud2c0\ub838|\uc2e4\uc218|\u7ea0\u6b63|\u66f4\u6b63|\u9519|\u932f|\u4e0d\u5bf9|\u4e0d\u5c0d|\u9593\u9055|\u0917\u0932\u0924",
    re.MULTILINE,
    # (no IGNORECASE: it reads ``folded`` text, where a case-blind alternation costs five times
    # as much at every word's start)
)
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
_KEYED_VALUE_RE = re.compile(
    r"\"(?:final[ _-]?)?(?:answer|result)\"[ \t]*:[ \t]*\"?(?P<v>[^\"\n,}]{1,80})"
    r"|<(?P<tag>[A-Za-z_]*(?:answer|final|result|solution)[A-Za-z_]*)>[ \t]*(?P<t>[^<\n]{1,80}?)[ \t]*</(?P=tag)>"
    rf"|^[ \t]*\|[ \t*_]*(?:final[ \t]+)?{_ANSWER_NOUN}[ \t*_:]*\|[ \t*_$]*(?P<r>{_VALUE})[ \t*_$]*\|[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_OPERAND_RE = re.compile(r"[ \t$*_]*[-+*/\u00d7\u00f7^=<>(]")
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


def _other_commitments(paragraph: str) -> list[str]:
    """The values of the shapes above in one earlier paragraph."""
    # (a conclusion's line that goes on computing is a step: "Final step: 24/2 = 12")
    # (an operator right after the value makes it an operand: "Final step: 24/2 = 12"; what
    # follows it otherwise runs the next sentence on: "TL;DR: 2901 13 weeks have ...")
    # ("Result: 24" under "Step 1" is the step's result, not an answer)
    steps = _STEP_LINE_RE.search(paragraph) is not None
    values = [m.group("v") for m in _CONCLUSION_LINE_RE.finditer(paragraph)
              if not _OPERAND_RE.match(m.group("rest")) and not (steps and m.group(0).lstrip("*_# \t>-").lower().startswith("result"))]
    values += [m.group("v") for m in _ANSWER_HEADING_RE.finditer(paragraph)]
    for m in _ANSWER_LIST_RE.finditer(paragraph):  # "Answers: 16, 18", "answer:\n  - 500\n  - 501"
        values += [item.group("v") for item in _LIST_VALUE_RE.finditer(m.group("list").strip())]
    values += [m.group("v") or m.group("t") or m.group("r") for m in _KEYED_VALUE_RE.finditer(paragraph)]
    values += [m.group("value") for m in _ANSWER_LINE_RE.finditer(paragraph) if not _BOUND_GAP_RE.search(m.group("gap"))]
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
        lines = re.split(r"[,;][ \t]*(?=\(?[a-z0-9]{1,3}[.)])", lines[0])  # "(i) 66, (ii) 660", "a) 216; b) 218"
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
    return _other_commitments(head) if holds_any(folded(head), _HINTS) else []


def _read_paragraph(paragraph: str) -> list[str]:
    """The values one earlier paragraph commits to (module doc)."""
    values: list[str] = []
    shown = _FENCE_LINE_RE.sub("", paragraph).strip() if "```" in paragraph or "~~~" in paragraph else paragraph.strip()
    lone = _LONE_VALUE_LINE_RE.fullmatch(shown)
    if lone is not None:  # "<final>1.1</final>" as it renders: a value alone in its paragraph
        sign = shown[lone.start("value") - 1 : lone.start("value")] if lone.start("value") else ""
        values.append((sign if sign in ("-", "+", "\u2212") else "") + _clean(lone.group("value")))  # ("#### -30")
    elif "\n" in shown:
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
        values += _paragraph_values(paragraph, len(paragraph.rstrip()), labelled_lines=False, look_back=False)
        values += _other_commitments(paragraph)
        if shown.endswith(("}", "```")):  # '```json\n{"answer": 21}\n```'
            js = json_answer(shown)
            if js is not None and (js.value is not None or js.problem is not None):
                values.append(js.value or "\\ldots")  # (several answers in one object: no one value)
    return values


def standing_answers(text: str, start: int) -> list[str]:
    r"""The values of the commitments in the paragraphs before the one that holds ``start``
    (the final answer's) that no revision said in words takes back, latest first; ``\ldots``
    at the end when more stand than one answer can be, or than can be read (paragraphs are
    read back ``_WINDOW`` characters, each paragraph's last ``READ_BACK_CHARS``; a hint of a
    commitment before that refuses).

    >>> standing_answers("\\boxed{21}\n\nSo 24/2 = 12.\n\n\\boxed{12}", 30)
    ['21']
    >>> standing_answers("\\boxed{21}\n\nWait, 24/2 = 12.\n\n\\boxed{12}", 30)
    []
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
    revised = None
    for revised in _TAKEN_BACK_RE.finditer(low):  # noqa: B007 - the last one (case folded: no IGNORECASE)
        pass
    if revised is not None:
        lo = window + revised.end()
    elif window > 0 and holds_any(folded(text, 0, window), _HINTS):
        return ["\\ldots"]  # a commitment may stand further back than is read
    else:
        lo = window
    if lo >= para_start:
        return []
    # the paragraphs of text[lo:para_start] that may commit (a hint or a digit), found in C
    spans: list[tuple[int, int]] = []
    hit = _CANDIDATE_RE.search(low, lo - window, para_start - window)
    while hit is not None:
        at = window + hit.start()
        begin = max(lo, text.rfind("\n\n", lo, at) + 2 if text.rfind("\n\n", lo, at) >= 0 else lo)
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
        values = list(dict.fromkeys([*values, *(_unboxed(v) for v in _read_paragraph(text[begin:end]))]))
        if len(values) > MAX_COMMITMENTS:
            return [*values, "\\ldots"]  # a wall of commitments: more answers than one can be
    return values
