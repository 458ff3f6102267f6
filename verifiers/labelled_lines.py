r"""Lines that offer a value whatever their label's word (issue 30, round 3): the
``paragraph`` rule of the grammar in ``verifiers.math_extract`` reads, besides boxes, tags and
"answer" clauses in known languages, every ``<label>: <value>`` or ``<label> <value>`` line
of the final answer's paragraph (``Svar: 7``, ``답: 7``, ``He has 6 apples.``) as an answer,
unless later arithmetic of the paragraph uses its number: then it is a step of a worked
solution (``Monday: 6$`` ... ``Total: 6+12+36=54$``). No word list can name every language's
"answer"; the shape and the use of the value can be read in any. A short sentence that opens
with a value and says something of it (``6 is correct.``, ``72 верно.``) offers it the same
way (``value_first_values``).
"""

from __future__ import annotations

import re

from verifiers.answer_values import _TAIL_VALUE_RE, _clean

__all__ = ["labelled_values", "value_first_values"]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])")


# Words that commit the value after them: what comes before is its derivation, not another answer.
_COMMIT_WORD_RE = re.compile(
    r"\b(?:is|are|was|were|be|been|equals?|gives?|giving|get|gets|got|yields?|yielding|makes?|"
    r"becomes?|so|thus|hence|therefore|answer|final|result|total|obtain|find|have|has|we|which|"
    # (not "then": "**6** then \boxed{5}" is a sequence of two answers, "then y = 4" commits by "=")
    # (not "of": it is Dutch for "or"; "the sum of" commits by "sum")
    r"namely|means|remains?|leaves?|left|in|for|at|on|by|with|all|sum|product)\b",
    re.IGNORECASE,
)


# A word of any script, its combining marks included (Devanagari vowel signs, Thai marks).
_LETTER = r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f])"
# "<label>: <value>" or "<label> <value>" on its line, the label one to four words of any
# script without a digit ("Svar: 7", "답: 7", "Cevap: **7**", "Monday: 6$", "Svar 7"), the
# value one number (in math, bold or code, with a sign or currency); around the colon and
# after the value, anything without another value (markup, "${}$", "---", a unit).
_LABELLED_LINE_RE = re.compile(
    rf"^(?P<lead>[^\w\n=&]*)(?<!\\)(?P<label>{_LETTER}+(?:[ \t'\u2019-]+{_LETTER}+){{0,3}})"
    r"(?:(?P<colon>[^\w\n]{0,40}?[:\uff1a])[^\w\n]{0,40}?|[ \t]+[^\w\n]{0,40}?)"
    r"(?P<value>[-+]?(?:\\?\$|[\u20ac\u00a3\u00a5\u20b9])?[ \t]*(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\\?\$|%)?)"
    # After a colon label a letter may follow the number at once: an invisible space removed
    # ("Svar: 1\u200bThe final answer ..."), a unit ("7cm"), text of a script written without
    # spaces. Without a colon, "He has 5x" is a term, not a value.
    r"(?![\d.,]\d)(?(colon)|(?![^\W\d_]))(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
# A value alone on its line, with markup only ("2", "**404**", "$7$", "\\[ 9 \\]", "- 5",
# "> 5", "(3)"): the shape "X alone on its line" that closes an answer offers one wherever it
# stands (a line break inside math, "x =\n7", belongs to the line before: not alone).
_LONE_VALUE_LINE_RE = re.compile(
    # possessive runs: a 1 MB line of markup must cost one pass, not a pass per character
    r"^(?P<lead>[^\w\n=&\\]*+(?:\\[\[(][^\w\n]*+)?)"
    r"(?P<value>(?:[\u20ac\u00a3\u00a5\u20b9][ \t]*+)?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\\?\$|%)?)"
    r"(?![\d.,]\d)(?P<rest>[^\w\n=\\]*+(?:\\[\])][^\w\n]*+)?(?:</think>[^\w\n]*+)?)$",
    re.MULTILINE,
)
# A line that names the answer anywhere in it and ends with one value, whatever stands between
# ("One more possible final answer here: 6", "The other answer that also works 6.",
# "另一个 可能 的 最终 答案 493."): a label longer than the four words above offers it too,
# unless the words between bound or deny it ("The answer is less than 10.").
_ANSWER_NOUN = (r"(?:answer|antwort|respuesta|r[\u00e9e]ponse|resposta|risposta|jawaban|svar|cevap|"
                r"odpowied\w*|vastaus|\u043e\u0442\u0432\u0435\u0442|\u0432\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c|"
                r"\u7b54\u6848|\u7b54\u3048|\uc815\ub2f5|\u0627\u0644\u062c\u0648\u0627\u0628|"
                r"\u0627\u0644\u0625\u062c\u0627\u0628\u0629|\u0909\u0924\u094d\u0924\u0930|"
                r"\u0e04\u0e33\u0e15\u0e2d\u0e1a|\u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7)")
_ANSWER_LINE_RE = re.compile(
    rf"^(?P<lead>[^\n\d]{{0,200}}?{_ANSWER_NOUN})(?P<gap>[^\n\d]{{0,80}}?)"
    r"(?P<value>[-+\u2212]?(?:\\?\$|[\u20ac\u00a3\u00a5\u20b9])?(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\\?\$|%)?)"
    r"(?![\d.,]\d)[*_$ \t.!)\u3002]*$",
    re.MULTILINE | re.IGNORECASE,
)
_BOUND_GAP_RE = re.compile(
    r"\b(?:than|least|most|between|under|over|below|above|from|to|within|exceed\w*|less|more|"
    r"greater|smaller|up|not|no|never|except|besides|of)\b|[<>\u2264\u2265\u2260]",
    re.IGNORECASE,
)
_SENTENCE_STOP_RE = re.compile(r"[.!?\u3002](?:\s|$)")
_COMMAND_RE = re.compile(r"\\[A-Za-z]+")
_REST_WORD_RE = re.compile(rf"{_LETTER}+")
_MAX_LABELLED_LINES = 64  # in one paragraph, more than any worked solution lists
_CONSUMED_WINDOW = 2_000  # how far after its line a labelled value is looked for as an operand


def labelled_values(text: str, para_start: int, start: int) -> list[str] | None:
    """The values of the ``<label>: <value>`` lines of the final answer's paragraph before
    ``start`` that no later arithmetic uses: whatever the label's word (no word list can name
    every language's "answer"), a value stated alone on its line is offered as an answer
    unless a later line of the paragraph (the final one included) computes with it, as a
    worked solution's steps do ("Monday: 6$" then "Total: 6+12+36=54$"). None when there are
    more such lines than any solution lists."""
    line_end = text.find("\n", start)
    hi = len(text) if line_end < 0 else line_end
    found: list[str] = []
    for count, m in enumerate(_LABELLED_LINE_RE.finditer(text, para_start, start)):
        if count >= _MAX_LABELLED_LINES:
            return None
        words = _REST_WORD_RE.findall(m.group("label"))
        if len(words[-1]) == 1 and words[-1].isascii():
            continue  # a variable ("N = 5", "x: 7"): a step of a derivation, no answer
        rest = _COMMAND_RE.sub(" ", m.group("rest"))
        if _TAIL_VALUE_RE.search(rest) or _BOX_RE.search(m.group("rest")):
            continue  # another value on the line: a computation, no lone value
        own = _SENTENCE_STOP_RE.split(rest, 1)[0]  # the rest of the value's own sentence
        if m.group("colon") is None and (
            "#" in m.group("lead") or len(_REST_WORD_RE.findall(rest)) > 2 or _COMMIT_WORD_RE.search(own)
        ):
            continue  # a heading ("## Step 2") names a part; a sentence goes on or commits
        if m.group("colon") is None and m.end() == start and not _SENTENCE_STOP_RE.search(rest):
            continue  # the final answer's own sentence: "First 2, then \boxed{3}" is a sequence
        if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(_clean(m.group("value")))
    for count, m in enumerate(_LONE_VALUE_LINE_RE.finditer(text, para_start, start)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.end() >= start or text[m.start() - 1 : m.start()] not in ("", "\n"):
            continue  # the final answer's own line
        if m.group("rest").strip() in (".", ")") and not m.group("lead").strip():
            continue  # "1." or "2)" alone: a list item's marker
        if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(_clean(m.group("value")))
    own_line = text.rfind("\n", 0, start)
    if own_line > para_start:
        for count, m in enumerate(_ANSWER_LINE_RE.finditer(text, para_start, own_line)):
            if count >= _MAX_LABELLED_LINES:
                return None
            if _BOUND_GAP_RE.search(m.group("gap")):
                continue
            if not _used_later(text, m.group("number"), m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
                found.append(_clean(m.group("value")))
    return list(dict.fromkeys(found))


_OPERATOR = (
    r"(?:[-+*/\u00d7\u00b7\u00f7(^{]|\\cdot|\\times|\\div|"
    r"\b(?:times|plus|minus|by|of|x|multiplied|divided|[Tt]imes|[Pp]lus|[Mm]inus)\b)"
)


def _used_later(text: str, number: str, lo: int, hi: int) -> bool:
    """Whether ``number`` stands as an operand of arithmetic in ``text[lo:hi]``: next to an
    operator, an opening parenthesis or brace, or an operator word ("13(2)=26", "40000-8000-800",
    "7 times 38")."""
    n = re.escape(number)
    operand = re.compile(
        rf"{_OPERATOR}[ \t$]*{n}(?![\d.,]\d)|(?<![\d.,]){n}[ \t$]*(?:{_OPERATOR}|\))"
    )
    return operand.search(text, lo, hi) is not None



# A short sentence of the final paragraph that opens with a value and says something about
# it ("6 is correct.", "6 maybe.", "72 верно.", "6也是正确答案。"): the value is what the sentence
# is about, an answer offered. At most eight words follow it and no other number, no "=" and
# no operator:
# "1 hour is 60 minutes", "2L + 11 = 35" and "48/2 = 24 clips" are the working.
_VALUE_FIRST_RE = re.compile(
    r"(?:^|(?<=[.!?\u3002])[ \t]+)(?:\\\(|\*\*|__|[ \t$>]|[*_](?=\d))*+(?P<number2>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?![\d.,]\d)(?![A-Za-z(])(?:[*_$]|\\\))*+,?[ \t]*{_LETTER}+(?:[ \t]+{_LETTER}+){{0,7}}[ \t]*[.!?\u3002\u0964](?=[ \t]|$)"
    r"|(?:^|(?<=[.!?\u3002])[ \t]+)(?:\\\(|\*\*|__|[ \t$>]|[*_](?=\d))*+(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?![\d.,]\d)(?![A-Za-z(])(?:[*_$]|\\\))*+,?[ \t]*{_LETTER}+(?:[ \t]+{_LETTER}+){{0,7}}[ \t]*[.!?\u3002\u0964]?[ \t]*$",
    re.MULTILINE,
)


def value_first_values(text: str, para_start: int, start: int) -> list[str] | None:
    """The values that open a sentence of the final answer's paragraph before ``start`` and
    that no later arithmetic uses (``6 is correct.`` then ``\\boxed{5}``); None when there
    are more of them than any solution holds."""
    line_end = text.find("\n", start)
    hi = len(text) if line_end < 0 else line_end
    found: list[str] = []
    for count, m in enumerate(_VALUE_FIRST_RE.finditer(text, para_start, start)):
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.group("number") is not None and not text.startswith("\n", m.end()):
            continue  # the line runs on into the final answer: its own sentence
        number = m.group("number") or m.group("number2")
        if not _used_later(text, number, m.end(), min(hi, m.end() + _CONSUMED_WINDOW)):
            found.append(number)
    for count, m in enumerate(_LONE_SENTENCE_RE.finditer(text, para_start, start)):
        # "**6**. Equivalently, \boxed{5}": a value said alone is offered; "2. Then" is a list
        if count >= _MAX_LABELLED_LINES:
            return None
        if m.end() < start and not _LIST_MARKER_RE.match(text, text.rfind("\n", 0, m.end()) + 1) and (
                not _used_later(text, m.group(1), m.end(), min(hi, m.end() + _CONSUMED_WINDOW))):
            found.append(m.group(1))
    return found


# A sentence that is one value and nothing else ("**6**.", "$6$!", "\\(6\\).") in the paragraph.
_LONE_SENTENCE_RE = re.compile(
    r"(?:^|(?<=[\u3002\uff01])|(?<=[.!?]\s))[ \t]*(?:[*_$]|\\\()*([-+\u2212]?\d[\d,.]*\d|[-+\u2212]?\d)(?:[*_$]|\\\))*"
    r"[ \t]*(?:[.!?\u3002\uff01\u2026]|\.\.\.)(?=\s|$)", re.MULTILINE)
_LIST_MARKER_RE = re.compile(r"[ \t]*[0-9]{1,2}[.)][ \t]+\S")
