r"""Where the final answer sits in a reference completion, and answers derived from it.

>>> s = find_slot("so $x = \\boxed{\\frac{1}{2}}$.", r"\frac12")
>>> s.text, s.open, s.close, s.after
('\\frac{1}{2}', '\\boxed{', '}', '}$.')
>>> wrong_answer("\\frac{1}{2}"), wrong_answer("-1,250"), wrong_answer("\\pi")
('\\frac{1}{3}', '-1,251', '\\pi+1')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

_BOX = re.compile(r"\\(?:boxed|fbox)\s*\{")
_HASHES = re.compile(r"####[ \t]*([^\n]*?)[ \t]*$", re.M)
_TAG = re.compile(r"<answer>(.*?)</answer>", re.S)
_LAST_INT = re.compile(r"\d+(?!.*\d)", re.S)
_NUMBER = re.compile(r"[-+]?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_CHOICE = re.compile(r"^(\\text\{\(?|\(?)([A-Ea-e])(\)?\}|\)?)$")


@dataclass(frozen=True)
class Slot:
    """The reference split around its final answer: ``before + open? text close? + after``.

    ``before`` ends with ``open`` and ``after`` starts with ``close`` (the marker stays in
    the reference; ``open``/``close`` say what it is, so a family can write another one).
    """

    before: str
    text: str
    after: str
    open: str = ""
    close: str = ""


def _box_content(text: str, match: re.Match[str]) -> tuple[int, int] | None:
    depth, start = 1, match.end()
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return start, i
    return None


def _marked_spans(reference: str) -> list[tuple[int, int, str, str]]:
    spans = []
    boxes = list(_BOX.finditer(reference))
    if boxes:
        inner = _box_content(reference, boxes[-1])
        if inner is not None:
            spans.append((*inner, "\\boxed{", "}"))
    hashes = list(_HASHES.finditer(reference))
    if hashes and hashes[-1].group(1):
        spans.append((hashes[-1].start(1), hashes[-1].end(1), "#### ", ""))
    tags = list(_TAG.finditer(reference))
    if tags:
        spans.append((tags[-1].start(1), tags[-1].end(1), "<answer>", "</answer>"))
    return spans


def _last_literal(reference: str, gold: str) -> tuple[int, int] | None:
    if not gold.strip():
        return None
    # the gold as a whole token: "2" must not match inside "12" or "x2"
    left = r"(?<![\w.])" if gold[0].isalnum() else ""
    right = r"(?![\w])" if gold[-1].isalnum() else ""
    found = list(re.finditer(left + re.escape(gold) + right, reference))
    return (found[-1].start(), found[-1].end()) if found else None


def find_slot(reference: str, gold: str) -> Slot:
    """The final answer of ``reference``: the latest of its last ``\\boxed{}``, ``####`` line
    and ``<answer>`` tag; else the last whole-token occurrence of ``gold``; else a line
    ``The answer is <gold>.`` appended to it."""
    spans = _marked_spans(reference)
    if spans:
        start, end, open_, close = max(spans)
        return Slot(reference[:start], reference[start:end], reference[end:], open_, close)
    literal = _last_literal(reference, gold)
    if literal is not None:
        start, end = literal
        return Slot(reference[:start], gold, reference[end:])
    before = reference + ("\n" if reference and not reference.endswith("\n") else "")
    return Slot(before + "The answer is ", gold, ".", "The answer is ", ".")


def as_number(text: str) -> Fraction | None:
    """``text`` as a plain decimal number (``$1,250``, ``-3.5``), else None."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        return None
    return Fraction(text.replace("$", "").replace(",", ""))


def wrong_answer(answer: str) -> str:
    """An answer that differs from ``answer`` in value but keeps its notation: the last
    integer bumped by one, a multiple-choice letter moved on, else ``answer+1``."""
    choice = _CHOICE.match(answer.strip())
    if choice:
        letter = choice.group(2)
        bumped = chr(ord(letter) + 1) if letter not in "Ee" else chr(ord(letter) - 1)
        return choice.group(1) + bumped + choice.group(3)
    last = _LAST_INT.search(answer)
    if last is not None:
        # (its width kept: "1,000" -> "1,001", whose last group "000" is no "1")
        bumped = str(int(last.group()) + 1).zfill(len(last.group()))
        return answer[: last.start()] + bumped + answer[last.end() :]
    return f"{answer}+1"


def negated(answer: str) -> str | None:
    """``answer`` with its sign flipped, for a nonzero number or a simple fraction/root;
    None where a sign has no single meaning (tuples, intervals, equations, text) or for 0."""
    text = answer.strip()
    number = as_number(text)
    if number is not None:
        if number == 0:
            return None
        return text[1:] if text.startswith("-") else "-" + text.lstrip("+")
    if re.fullmatch(r"-?\d*\\(?:d?frac|sqrt)\{[^{}]*\}(?:\{[^{}]*\})?", text) and re.search(
        r"[1-9]", text
    ):
        return text[1:] if text.startswith("-") else "-" + text
    return None


