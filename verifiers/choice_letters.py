r"""Choice letters offered beside a choice-letter answer (issue 30, round 7).

When the final answer is a choice letter (``\boxed{B}``), another letter its paragraph offers
on its own is a second answer: in brackets or bold, or opening a sentence or a line as its
subject or label (``(E) is correct.``, ``**(C)**``, ``D: correct.``, ``option D``). A letter
whose sentence rules it out (``(A) is wrong.``, ``(B) is not possible.``) is the working of an
elimination, no answer.

>>> offered_choices("(A) is wrong. (E) is correct. So ", 33, "B")
('E',)
>>> offered_choices("(E) is correct. ", 16, "12")
()
"""

from __future__ import annotations

import re

from verifiers.answer_commitments import _CHOICE_RE
from verifiers.answer_values import _clean, _sentence_end

__all__ = ["offered_choices"]

_OFFERED_CHOICE_RE = re.compile(
    r"\((?P<letter>[A-J])\)|\*\*\(?(?P<letter2>[A-J])\)?\*\*|(?:^|(?<=[.!?]\s))[ \t*]*(?P<letter3>[A-J])[.:)?!](?=\s)"
    r"|\b(?i:option|choice)[ \t]+\(?(?P<letter4>[A-J])\b"
    # two letters joined: "C or A.", "B/D"
    r"|(?<![\w(])(?P<letter5>[A-J])[ \t]*(?:(?i:or|and)|/)[ \t]*(?P<letter6>[A-J])(?![\w)])",
    re.MULTILINE,
)
_RULED_OUT_RE = re.compile(
    r"\b(?:wrong|incorrect|false|not|isn't|cannot|can't|impossible|eliminat\w*|rul\w*\s+out|invalid|fails?)\b",
    re.IGNORECASE,
)
_WINDOW = 2_000  # characters read back: a paragraph's options stand near its answer


def offered_choices(text: str, before_at: int, answer: str) -> tuple[str, ...]:
    """The choice letters offered in the paragraph before ``before_at`` when ``answer`` is a
    choice letter, or ``()``."""
    if not _CHOICE_RE.fullmatch(_clean(answer).strip()):
        return ()
    para_start = max(text.rfind("\n\n", 0, before_at) + 1, before_at - _WINDOW)
    return tuple(
        letter
        for m in _OFFERED_CHOICE_RE.finditer(text, para_start, before_at)
        if not _RULED_OUT_RE.search(text, m.end(), min(before_at, _sentence_end(text, m.end())))
        for letter in m.groups() if letter
    )
