"""Short notes beside a JSON answer (``{"answer": 12, "note": "roughly"}``): which of them
qualify the answer, as the same words would after it in prose.

A note of at most ``NOTE_CHARS`` characters is read as a label before the answer (``"probably"``,
``"random guess"``); one of at most ``NOTE_WORDS`` words also as the words after it: symbols
alone, a bound, estimate, scale, sign or judgement of falsity, a retraction, or a word of
another script that is no answer phrase. Longer members are working, read by the prose rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from verifiers.answer_sentence import _prose_ok
from verifiers.answer_tail import _APPROX_AFTER_RE, _DOUBT_RE, _LATER_NEGATION_RE
from verifiers.qualifier_words import qualified_lead

NOTE_CHARS = 60  # a JSON member this short is a note on the answer, read as its label
NOTE_WORDS = 3  # one this short is read as a parenthesis after the answer


# A note that takes the answer back, flips its sign, says it is inexact or scales it
# ("retracted", "minus", "sign flipped", "inexact", "thousands").
_TAKEN_BACK_RE = re.compile(
    r"\b(?:retract\w*|withdr[ae]wn?|revoked|void|ignore\w*|disregard\w*|placeholder|minus|negat\w*|"
    r"flipped|opposite|inexact|imprecise|rounded|truncated|estimated?|"
    r"(?:hundred|thousand|million|billion|trillion)s?|dozens?|percent)\b", re.IGNORECASE)


def _note_qualifies(note: str) -> bool:
    """Whether a short JSON note qualifies the answer beside it as the words after an answer
    would: symbols alone (``"\u2265"``, ``"~"``, ``"+"``), a bound, estimate, scale or judgement
    of falsity (``"mindestens"``, ``"in millions"``, ``"bogus"``, ``"retracted"``), or a word of
    another script that is no answer phrase (``"\u7ea6"``)."""
    if not any(c.isalnum() for c in note):
        return True
    return (not _prose_ok(note) or _APPROX_AFTER_RE.match(note) is not None or _TAKEN_BACK_RE.search(note) is not None
            or _LATER_NEGATION_RE.search(note) is not None or _DOUBT_RE.search(note) is not None)


def qualifying_note(notes: Iterable[str]) -> str | None:
    """The first of a JSON answer's short notes that qualifies it, or None.

    >>> qualifying_note(["add them", "verified"]) is None, qualifying_note(["exact", "\u2265"])
    (True, '\u2265')
    >>> qualifying_note(["in millions"]), qualifying_note(["random guess"])
    ('in millions', 'random guess')
    """
    for note in notes:
        if len(note) <= NOTE_CHARS and qualified_lead(note.rstrip(" .!") + ": ") is not None:
            return note
        if len(note.split()) <= NOTE_WORDS and _note_qualifies(note):
            return note
    return None
