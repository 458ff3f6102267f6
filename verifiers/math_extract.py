r"""Pulling the final answer out of a completion, in linear time.

Precedence (the first rule that finds something wins; within a rule the *last* occurrence
wins, so a self-correction counts its last answer):

1. ``boxed``: the last complete ``\boxed{...}`` / ``\fbox{...}`` (nested braces, escaped
   ``\{ \}``), or ``\boxed 5``. An unclosed box at the end (a truncated completion) is skipped
   in favour of the last closed one.
2. ``####``: the rest of the line after the last ``####``.
3. ``answer_is``: the last "the (final) answer is ...", "answer: ...", "answer = ...": the math
   right after it (``$...$``, ``\(...\)``) or else the rest of the sentence.
4. ``last_number``: the last number in the text. When it ends a hedge ("3 or 4"), the whole
   hedge is returned so that it can never count as either number.

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

__all__ = ["extract_answer", "extract_answer_with_source", "last_boxed"]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)\b")
_BRACE_RE = re.compile(r"\\[{}]|[{}]")
_ANSWER_IS_RE = re.compile(
    r"\b(?:final\s+answer|answer)\s*(?:(?:is|would\s+be|will\s+be|should\s+be)\b\s*:?|:|=)",
    re.IGNORECASE,
)
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
    ends = [m for m in _BOX_RE.finditer(text)]
    for m in reversed(ends[-_MAX_BOX_TRIES:]):
        i = m.end()
        while i < len(text) and text[i] in " \t":
            i += 1
        if i < len(text) and text[i] == "{":
            end = _balanced_end(text, i)
            if end is not None:
                return text[i + 1 : end - 1].strip()
            continue
        # \boxed 7: one token up to whitespace or a math delimiter.
        j = i
        while j < len(text) and text[j] not in " \t\n$":
            j += 1
        if j > i:
            return text[i:j]
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


def _after_answer_is(text: str, start: int) -> str | None:
    rest = text[start : start + _MAX_ANSWER_LINE].lstrip(" \t*")
    line_end = rest.find("\n")
    line = rest if line_end < 0 else rest[:line_end]
    # The math right after the phrase, if it starts with a delimiter.
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
        if line.startswith(left):
            close = line.find(right, len(left))
            if close > 0:
                return line[len(left) : close].strip() or None
    # Otherwise the sentence: up to a period (not a decimal point), "!" or "?" ending it.
    m = re.search(r"[.!?](?:\s|$)", line)
    sentence = line if m is None else line[: m.start()]
    sentence = _clean(sentence)
    return sentence or None


_HEDGE_TAIL_RE = re.compile(r"(?:\bor|\band/or)\s*\$?\s*$", re.IGNORECASE)


def extract_answer_with_source(text: str) -> tuple[str, str] | None:
    """``(answer, rule)`` where rule is ``boxed``, ``####``, ``answer_is`` or ``last_number``.

    >>> extract_answer_with_source("#### 1,000")
    ('1,000', '####')
    """
    if not isinstance(text, str) or not text:
        return None
    boxed = last_boxed(text)
    if boxed is not None and boxed.strip():
        return _clean(boxed), "boxed"
    pos = text.rfind("####")
    if pos >= 0:
        line = text[pos + 4 : pos + 4 + _MAX_ANSWER_LINE].lstrip("# \t").split("\n", 1)[0]
        if line.strip():
            return _clean(line), "####"
    last = None
    for last in _ANSWER_IS_RE.finditer(text):  # noqa: B007 - we want the last match
        pass
    if last is not None:
        ans = _after_answer_is(text, last.end())
        if ans:
            return ans, "answer_is"
    numbers = find_numbers(text)
    if not numbers:
        return None
    final = numbers[-1]
    if len(numbers) >= 2:
        prev = numbers[-2]
        between = text[prev.end : final.start]
        if len(between) < 40 and _HEDGE_TAIL_RE.search(between):
            return text[prev.start : final.end], "last_number"
    return final.text, "last_number"


def extract_answer(text: str) -> str | None:
    """The final answer in ``text`` (see the module docstring for the precedence), or None."""
    found = extract_answer_with_source(text)
    return None if found is None else found[0]
