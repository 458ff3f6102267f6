r"""Pulling the final answer out of a completion, in linear time.

Precedence (the first rule that finds something wins; within a rule the *last* occurrence
wins, so a self-correction counts its last answer):

1. ``boxed``: the last complete ``\boxed{...}`` / ``\fbox{...}`` (nested braces, escaped
   ``\{ \}``), or ``\boxed 5``. An unclosed box at the end (a truncated completion) is skipped
   in favour of the last closed one.
2. ``####``: the rest of the line after the last ``####``.
3. ``answer_is``: the last "the (final) answer is ...", "answer: ...", "answer = ...": the math
   right after it (``$...$``, ``\(...\)``) or else the rest of the sentence; the whole sentence
   too when it goes on to another answer ("$5$ or $6$").
4. ``last_number``: the last number in the text. When it ends a hedge ("3 or 4", "6 or
   possibly 7") or a list ("6, 7"), the whole of it is returned so that it can never count as
   either number.

``extract_final_answer`` also returns the short tail after the answer when it takes the answer
back or doubts it ("5. No wait", "5?"); ``verifiers.math`` scores such an answer 0.

>>> extract_answer(r"so $x = \boxed{\frac{1}{2}}$.")
'\\frac{1}{2}'
>>> extract_answer("The answer is 5. Wait, no: the answer is 6.")
'6'
>>> extract_answer("It is either 3 or 4")
'3 or 4'
>>> extract_answer("nothing here") is None
True
"""

from __future__ import annotations

import re

from verifiers.exact_numbers import find_numbers

__all__ = [
    "extract_answer",
    "extract_answer_with_source",
    "end_of_answer_line",
    "extract_final_answer",
    "is_hedge",
    "last_boxed",
    "last_number",
    "retraction_after",
]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)\b")
_BRACE_RE = re.compile(r"\\[{}]|[{}]")
_ANSWER_IS_RE = re.compile(
    r"\b(?:final\s+answer|answer)\s*(?:(?:is|would\s+be|will\s+be|should\s+be)\b\s*:?|:|=)",
    re.IGNORECASE,
)
_MARKUP_TAG_RE = re.compile(r"</?[A-Za-z][\w.:-]*\s*/?>")
_LEAD_RE = re.compile(r"[ \t*]*")
_MAX_BOX_TRIES = 4  # how many trailing unclosed boxes to skip (bounded: linear overall)
_MAX_ANSWER_LINE = 2_000


def _balanced_end(text: str, open_pos: int) -> int | None:
    """Index just past the ``}`` closing the ``{`` at ``open_pos``; None if unclosed."""
    depth = 0
    for m in _BRACE_RE.finditer(text, open_pos):
        tok = m.group(0)
        if len(tok) == 2:  # \{ or \}: literal braces, part of the content
            continue
        depth += 1 if tok == "{" else -1
        if depth == 0:
            return m.end()
    return None


def last_boxed(text: str) -> str | None:
    r"""Content of the last complete ``\boxed{}``/``\fbox{}`` in ``text``.

    >>> last_boxed(r"\boxed{1} then \boxed{\frac{a}{b}} and \boxed{2")
    '\\frac{a}{b}'
    >>> last_boxed(r"\boxed 7$")
    '7'
    """
    span = _last_boxed_span(text)
    return None if span is None else span[0]


def end_of_answer_line(line: str) -> str:
    """``line`` up to a markup tag: in ``<answer>#### 42</answer>`` the answer is 42.

    >>> end_of_answer_line("42</answer>")
    '42'
    """
    m = _MARKUP_TAG_RE.search(line)
    return line if m is None else line[: m.start()]


def _last_boxed_span(text: str) -> tuple[str, int] | None:
    """``(content, end)`` of the last complete box; ``end`` is the index just past it."""
    ends = [m for m in _BOX_RE.finditer(text)]
    for m in reversed(ends[-_MAX_BOX_TRIES:]):
        i = m.end()
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == "{":
            end = _balanced_end(text, i)
            if end is not None:
                return text[i + 1 : end - 1].strip(), end
            continue
        # \boxed 7: one token up to whitespace or a math delimiter.
        j = i
        while j < len(text) and text[j] not in " \t\n$":
            j += 1
        if j > i:
            return text[i:j], j
    return None


def _clean(ans: str) -> str:
    ans = ans.strip()
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"), ("**", "**")):
        if len(ans) >= len(left) + len(right) and ans.startswith(left) and ans.endswith(right):
            ans = ans[len(left) : len(ans) - len(right)].strip()
    ans = ans.strip("*").strip()
    # A sentence-final period (not a decimal point: "5." -> "5", "3.5" stays).
    while ans.endswith((".", ",", ";")) or ans.endswith("\\."):
        ans = ans[:-1].rstrip()
    return ans.strip("$").strip()


def _find_unescaped(text: str, delim: str, start: int) -> int:
    """``text.find(delim, start)``, skipping a ``$`` written as ``\\$`` (a dollar sign:
    "$\\$36$" is one math span, not "$\\$" and "36$")."""
    i = text.find(delim, start)
    while i > 0 and delim.startswith("$") and text[i - 1] == "\\":
        i = text.find(delim, i + 1)
    return i


def _after_answer_is(text: str, start: int) -> tuple[str, int] | None:
    """The answer after "the answer is" and the index in ``text`` just past it."""
    offset = _LEAD_RE.match(text, start).end()  # type: ignore[union-attr] - always matches
    rest = text[offset : offset + _MAX_ANSWER_LINE]
    line_end = rest.find("\n")
    line = rest if line_end < 0 else rest[:line_end]
    # The sentence: up to a period (not a decimal point), "!" or "?" ending it.
    m = re.search(r"[.!?](?:\s|$)", line)
    sentence = line if m is None else line[: m.start()]
    # The math right after the phrase, if it starts with a delimiter, unless the sentence goes
    # on to offer another answer ("$5$ or $6$", "$5$, $6$"): then the whole sentence.
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
        if line.startswith(left):
            close = _find_unescaped(line, right, len(left))
            if close > 0:
                after = sentence[close + len(right) :]
                if not _ANOTHER_ANSWER_RE.match(after):
                    math = line[len(left) : close].strip()
                    return (math, offset + close + len(right)) if math else None
                end = offset + len(sentence)
                cleaned = _clean(" ".join(_DELIMITER_RE.sub(" ", sentence).split()))
                return (cleaned, end) if cleaned else None
    # Otherwise the whole sentence is the answer.
    cleaned = _clean(sentence)
    return (cleaned, offset + len(sentence)) if cleaned else None


# Between the last two numbers: a hedge ("3 or 4", "6 or possibly 7", "5, or maybe 6") ...
_HEDGE_BETWEEN_RE = re.compile(r"\b(?:or|and/or)\b", re.IGNORECASE)
# ... or a bare list ("6, 7"): either way the final answer names more than one value.
_LIST_BETWEEN_RE = re.compile(r"\s*\$?\s*[,;]\s*\$?\s*")
_SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)")
_ANOTHER_ANSWER_RE = re.compile(
    r"\s*(?:,|;|\bor\b|\band/or\b|\\lor\b)\s*(?:maybe|possibly|perhaps|probably)?\s*"
    r"(?:\$|\\\(|[-+\u2212]?\.?\d)",
    re.IGNORECASE,
)
_DELIMITER_RE = re.compile(r"\$+|\\[()\[\]]")
# After the final answer, a short tail that takes it back or doubts it: "5. No wait", "5?",
# "5, or maybe not", "5. Hmm, not sure." Only a short tail counts: a model that goes on to
# verify its answer at length ("Wait, let me check: 2 + 3 = 5. Yes.") is not retracting it.
# "Wait", "hmm" and "let me check" alone do not take an answer back: reasoning models write
# "Wait, let me verify this. Yes, it checks out." after answers they keep.
_RETRACT_RE = re.compile(
    r"^\W*\?|\b(?:no,? wait|wait,? no|nope|scratch that|not sure|unsure|not certain|maybe not|"
    r"or not|or maybe|or possibly|or perhaps|actually,? (?:no|not)|"
    r"that'?s (?:wrong|incorrect|not right)|that is (?:wrong|incorrect|not right)|"
    r"i made an? (?:mistake|error))\b",
    re.IGNORECASE,
)
_MAX_RETRACT_TAIL = 100


def last_number(text: str) -> tuple[str, int] | None:
    """``(number, end)``: the last number in ``text``, or the whole hedge or list it ends
    ("3 or 4", "6, or possibly 7", "6, 7"), and the index just past it.

    >>> last_number("It is 5 or maybe 6."), last_number("In 2 days: 1,000 apples")
    (('5 or maybe 6', 18), ('1,000', 16))
    """
    numbers = find_numbers(text)
    if not numbers:
        return None
    final = numbers[-1]
    first = len(numbers) - 1
    # Walk back over a hedge or a list ending the text: "3 or 4" and "6, 7" are returned whole,
    # so that they can never count as one number.
    while first > 0:
        between = text[numbers[first - 1].end : numbers[first].start]
        if len(between) >= 40 or _SENTENCE_END_RE.search(between):
            break
        if not (_HEDGE_BETWEEN_RE.search(between) or _LIST_BETWEEN_RE.fullmatch(between)):
            break
        first -= 1
    return text[numbers[first].start : final.end], final.end


def retraction_after(text: str, end: int) -> str | None:
    """The words after the answer (ending at ``end``) that take it back, or None."""
    tail = text[end : end + _MAX_RETRACT_TAIL + 1].strip()
    if len(tail) > _MAX_RETRACT_TAIL:
        return None
    m = _RETRACT_RE.search(tail)
    return None if m is None else tail


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


def extract_final_answer(text: str) -> tuple[str, str, str | None] | None:
    """``(answer, rule, retraction)``: as ``extract_answer_with_source``, plus the short tail
    after the answer that takes it back or doubts it ("5. No wait", "5?"), else None.

    >>> extract_final_answer("The answer is 5. No wait")
    ('5', 'answer_is', '. No wait')
    >>> extract_final_answer("It is 6, or possibly 7.")
    ('6, or possibly 7', 'last_number', None)
    """
    if not isinstance(text, str) or not text:
        return None
    found = _extract(text)
    if found is None:
        return None
    answer, rule, end = found
    return answer, rule, retraction_after(text, end)


def _extract(text: str) -> tuple[str, str, int] | None:
    boxed = _last_boxed_span(text)
    if boxed is not None and boxed[0].strip():
        return _clean(boxed[0]), "boxed", boxed[1]
    pos = text.rfind("####")
    if pos >= 0:
        start = pos + 4
        line = text[start : start + _MAX_ANSWER_LINE]
        line = line[len(line) - len(line.lstrip("# \t")) :].split("\n", 1)[0]
        line = end_of_answer_line(line)
        if line.strip():
            line_end = text.find("\n", start)
            return _clean(line), "####", len(text) if line_end < 0 else line_end
    last = None
    for last in _ANSWER_IS_RE.finditer(text):  # noqa: B007 - we want the last match
        pass
    if last is not None:
        found = _after_answer_is(text, last.end())
        if found:
            return found[0], "answer_is", found[1]
    number = last_number(text)
    if number is None:
        return None
    answer, end = number
    # "x \neq 5" or "$< 5$" ends with 5 but does not state it: keep the relation, so the
    # answer reads as what it is (and scores 0) instead of as the bare number. A ">" that
    # closes an HTML tag ("<b>5</b>") is no relation.
    start = end - len(answer)
    relation = _RELATION_BEFORE_RE.search(text, max(0, start - 24), start)
    if relation is not None:
        answer = text[relation.start() : end].replace("$", "").strip()
    return answer, "last_number", end


_RELATION_BEFORE_RE = re.compile(
    r"(?:\\neq?|\\not\s*=|\\[lg]eq?q?|\\[lg]t|\\approx|\\sim|\\simeq|<|(?<![\w\"'/])>"
    r"|[\u2260\u2264\u2265\u2248])[\s${(]*$"
)


def extract_answer_with_source(text: str) -> tuple[str, str] | None:
    """``(answer, rule)`` where rule is ``boxed``, ``####``, ``answer_is`` or ``last_number``.

    >>> extract_answer_with_source("#### 1,000")
    ('1,000', '####')
    """
    if not isinstance(text, str) or not text:
        return None
    found = _extract(text)
    return None if found is None else (found[0], found[1])


def extract_answer(text: str) -> str | None:
    """The final answer in ``text`` (see the module docstring for the precedence), or None."""
    found = extract_answer_with_source(text)
    return None if found is None else found[0]
