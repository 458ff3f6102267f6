"""Substring tests that rule a case-insensitive word pattern out before it runs (speed).

A pattern compiled with ``re.IGNORECASE`` that needs one word of a list (an answer noun,
"possible") is tried at every position it may start; most paragraphs hold none of its words,
and one ``in`` test per word, in C, on a lowercased copy, says so at a tenth of the cost.

The test must never say "absent" where the pattern could match, so the copy is folded as
``re.IGNORECASE`` folds: ``str.lower`` plus the characters that Python's ``re`` matches with
a letter although ``lower`` maps them elsewhere (``\u0130`` matches "i", ``\u017f`` "s",
``\u212a`` "k"; ``tests/test_word_hints.py`` scans every code point for them).

>>> holds_any(folded("The ANSW\u0130R"), ("answir",))
True
"""

from __future__ import annotations

__all__ = ["folded", "holds_any"]

# What re.IGNORECASE matches with a letter other than its str.lower(): the Turkish dotted and
# dotless i, the long s, the Kelvin sign, Greek variant forms and old Cyrillic letter forms.
_RE_FOLDS = str.maketrans({
    "\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k",
    "\u03c2": "\u03c3", "\u03d0": "\u03b2", "\u03d1": "\u03b8", "\u03d5": "\u03c6",
    "\u03d6": "\u03c0", "\u03f0": "\u03ba", "\u03f1": "\u03c1", "\u03f5": "\u03b5",
    "\u1e9b": "\u1e61", "\u1fbe": "\u03b9",
    "\u1c80": "\u0432", "\u1c81": "\u0434", "\u1c82": "\u043e", "\u1c83": "\u0441",
    "\u1c84": "\u0442", "\u1c85": "\u0442", "\u1c86": "\u044a", "\u1c87": "\u0463",
    "\u1c88": "\ua64b",
})


def folded(text: str, lo: int = 0, hi: int | None = None) -> str:
    """``text[lo:hi]`` lowercased as ``re.IGNORECASE`` compares it: a word that a case-blind
    pattern finds there is, lowercased, a substring of this."""
    piece = text[lo:hi]
    return (piece if piece.isascii() else piece.translate(_RE_FOLDS)).lower()


def holds_any(low: str, words: tuple[str, ...]) -> bool:
    """Whether the folded text ``low`` holds one of ``words`` (lowercase)."""
    return any(w in low for w in words)
