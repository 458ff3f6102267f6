r"""The substring hints that let a reader skip a case-blind word pattern (``verifiers.word_hints``)
must never say "absent" where the pattern matches: a skipped pattern is a missed answer, and a
missed answer is a hedge paid.

- every code point that ``re.IGNORECASE`` matches with a letter of a hint word folds to it;
- a text that an answer-noun pattern matches holds a noun core (generated: every noun, any
  casing, any surroundings);
- the copula-only clause pattern finds exactly what the full one finds in a text without a
  noun core, and every candidates match holds the candidates hint (generated sentences).
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifiers.labelled_lines import (
    _ANSWER_NOUN_RE,
    _CANDIDATE_WORDS,
    _CANDIDATES_RE,
    _CLAUSE_SENTENCE_RE,
    _COPULA_SENTENCE_RE,
    _OR_AFTER_DIGIT_RE,
)
from verifiers.word_hints import NOUN_CORES, folded, holds_any

_SCALE = max(1, int(os.environ.get("RLVR_PROPERTY_SCALE", "1")))
PROPERTY = settings(
    max_examples=400 * _SCALE, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
)
HINT_WORDS = (*NOUN_CORES, *_CANDIDATE_WORDS)

# One spelling of each answer noun the pattern knows (its optional parts both ways).
NOUNS = (
    "answer", "antwort", "antwoord", "jawapan", "yan\u0131t", "YANIT", "atsakymas", "atbilde", "vastus", "odpove\u010f",
    "odgovor", "\u043e\u0442\u0433\u043e\u0432\u043e\u0440", "\u062c\u0648\u0627\u0628", "\u0111\u00e1p \u00e1n", "\u0111\u00e1p  \u00e1n", "jibu", "sagot", "v\u00e1lasz",
    "odpov\u011b\u010f", "r\u0103spuns", "\u05ea\u05e9\u05d5\u05d1\u05d4", "\u067e\u0627\u0633\u062e",
    "\u0989\u09a4\u09cd\u09a4\u09b0", "respuesta", "r\u00e9ponse", "reponse", "resposta", "risposta", "jawaban",
    "svar", "cevap", "odpowied\u017a", "odpowiedzi", "vastaus", "\u043e\u0442\u0432\u0435\u0442",
    "\u0432\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c", "\u7b54\u6848", "\u7b54\u3048", "\u6b63\u89e3",
    "\uc815\ub2f5", "\ub2f5", "\u0627\u0644\u062c\u0648\u0627\u0628", "\u0627\u0644\u0625\u062c\u0627\u0628\u0629",
    "\u0909\u0924\u094d\u0924\u0930", "\u0e04\u0e33\u0e15\u0e2d\u0e1a",
    "\u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7",
)
# Characters re.IGNORECASE takes for a letter though str.lower() maps them elsewhere.
ODD_CASES = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a", "\u03c0": "\u03d6", "\u03c3": "\u03c2"}


def test_every_noun_alternative_has_a_spelling_here() -> None:
    alternatives = _ANSWER_NOUN_RE.pattern[3:-1].split("|")
    for alternative in alternatives:
        one = re.compile(alternative, re.IGNORECASE)
        assert any(one.fullmatch(noun) for noun in NOUNS), alternative


def test_hint_words_are_stored_folded() -> None:
    assert all(folded(word) == word for word in HINT_WORDS)


def test_every_code_point_the_engine_takes_for_a_hint_letter_folds_to_it() -> None:
    letters = sorted({c for word in HINT_WORDS for c in word if c.isalpha()})
    any_letter = re.compile("[" + "".join(map(re.escape, letters)) + "]", re.IGNORECASE)
    hits = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000 and any_letter.fullmatch(chr(c))]
    assert len(hits) > len(letters)  # the upper cases at least
    for c in hits:
        same = [letter for letter in letters if re.fullmatch(re.escape(letter), c, re.IGNORECASE)]
        assert folded(c) in same, (hex(ord(c)), same, folded(c))


def _casings(word: str) -> st.SearchStrategy[str]:
    def one(c: str) -> st.SearchStrategy[str]:
        return st.sampled_from(sorted({c, c.upper(), c.lower(), *ODD_CASES.get(c, "")}))

    return st.tuples(*(one(c) for c in word)).map("".join)


FILLER = st.text(st.sampled_from(list("abc xyz.:*\n5\u00e9\u4e2d")), max_size=12)


@PROPERTY
@given(st.sampled_from(NOUNS).flatmap(_casings), FILLER, FILLER)
def test_a_text_with_an_answer_noun_holds_a_noun_core(noun: str, before: str, after: str) -> None:
    text = before + noun + after
    if _ANSWER_NOUN_RE.search(text):
        assert holds_any(folded(text), NOUN_CORES), text


# "or" in the languages the candidates pattern reads.
OR_WORDS = ["or", "ou", "o", "oder", "eller", "vagy", "nebo", "albo", "lub", "sau", "tai", "atau", "veya", "ya da",
            "hay", "ho\u1eb7c", "\u0438\u043b\u0438", "\u043b\u0438\u0431\u043e", "\u0430\u0431\u043e", "\u03ae",
            "\u0623\u0648", "\u05d0\u05d5", "\u092f\u093e", "\u0e2b\u0e23\u0e37\u0e2d", "\ub610\ub294", "\u304b",
            "\u6216\u8005", "\u6216", "\u8fd8\u662f", "\u9084\u662f"]
WORDS = st.sampled_from(
    ["it", "is", "It's", "that", "was", "c'est", "es", "das ist", "det \u00e4r", "jest", "ini", "\u044d\u0442\u043e",
     "\u662f", "so", "the", "Total", "five", "6", "12.5", "or", "and", ",", ".", "!", "?", ":", "\n", "*", "$",
     "Possible", "options", "\u0130T \u0130S", "CHO\u0130CE", "\u017fo", *OR_WORDS, *(w.upper() for w in OR_WORDS)]
)
SENTENCES = st.lists(WORDS, max_size=14).map(" ".join)


@PROPERTY
@given(SENTENCES)
def test_without_a_noun_the_copula_clause_pattern_finds_what_the_full_one_finds(text: str) -> None:
    if holds_any(folded(text), NOUN_CORES):
        return
    full = [m.span() for m in _CLAUSE_SENTENCE_RE.finditer(text)]
    assert [m.span() for m in _COPULA_SENTENCE_RE.finditer(text)] == full


@PROPERTY
@given(SENTENCES)
def test_every_candidates_match_holds_the_candidates_hint(text: str) -> None:
    if _CANDIDATES_RE.search(text):
        assert _OR_AFTER_DIGIT_RE.search(text) or holds_any(folded(text), _CANDIDATE_WORDS), text
