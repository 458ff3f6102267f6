r"""Words standing where a value stands, that the grammar cannot read (issue 30, round 7,
the blind h25 set).

A value can be spelled in any language and any size (``veintiuno``, ``dreißig``, ``сто``,
``ishirini``, ``soixante-dix``): no lexicon lists them all (``verifiers.spelled_numbers``
reads zero to twenty). So the slots where a sentence offers a value are read by an
allow-list instead. In the final answer's paragraph, before the commitment:

    slot := a line that is one word                        "veintiuno.", "<p>tuttugu</p>"
          | a hedge and at most three words                "Maybe ishirini.", "Or hundra."
          | one word and what judges it                    "fiche is right.", "X also works."
          | an answer label and one word                   "Result: ხუთი"

The word in a slot must be one the grammar reads as prose that offers nothing (an answer label,
a connective, a listed opener or closing word: ``Therefore``, ``Done.``, ``Answer:``); any other
word there is offered as a value, which never equals the answer: reason ``hedged``. A line
that goes on from the line before (which ends in a word, a number or a comma) is no slot:
``... apple snails in 5`` / ``days.``.

>>> unread_slot_words("veintiuno.\nThe answer is ", 0, 27)
['veintiuno']
>>> unread_slot_words("Therefore\nThe answer is ", 0, 24)
[]
"""

from __future__ import annotations

import re

from verifiers.answer_closing import CLOSING_WORDS
from verifiers.labelled_lines import _LETTER, READ_BACK_CHARS, _anchored, _sentence_starts
from verifiers.lead_words import CONNECTIVE_WORDS, LABEL_WORDS, SHORT_OPENERS

__all__ = ["unread_slot_words"]

_WORD = rf"{_LETTER}++(?:[-'\u2019 ]{_LETTER}++){{0,2}}"
_MARKUP = r"(?:[*_`>#\-\u2022 \t]|<[a-z]{1,5}>|</[a-z]{1,5}>|\[\^\d+\]:)*+"
_SLOT_RE = re.compile(
    # a line that is one word
    rf"^{_MARKUP}(?P<alone>{_LETTER}++(?:-{_LETTER}++)*){_MARKUP}[.!?]?{_MARKUP}$"
    # a hedge and at most three words
    rf"|(?:^|(?<=[.!?]\s)){_MARKUP}(?i:maybe|perhaps|or|either|could\s+be|possibly|probably|might\s+be)"
    rf"[ \t]+(?P<hedged>{_WORD})[ \t]*[.!?]"
    # one word and what judges it
    rf"|(?:^|(?<=[.!?]\s)){_MARKUP}(?P<judged>{_LETTER}++(?:-{_LETTER}++)*){_MARKUP}[ \t]*"
    r"(?i:also\s+works|works\s+too|is\s+(?:also\s+)?(?:right|correct|fine|valid)|too|as\s+well|,\s*I\s+think|"
    r"\s*[\u2014-]\s*that's\s+it)[ \t]*[.!?]"
    # an answer label and one word
    rf"|^{_MARKUP}(?i:result|answer|total|final\s+answer|solution)[ \t]*:[ \t]*(?P<labelled>{_WORD}){_MARKUP}[.!]?[ \t]*$",
    re.MULTILINE,
)
_PROSE_WORDS = """done yes no ok okay hmm wait verify verification check checking answer solution
conclusion summary therefore thus hence finally so note explanation proof calculation computation
result total this that it which everything all both none below above following correct right
true false"""
_READ_WORDS = LABEL_WORDS | SHORT_OPENERS | CONNECTIVE_WORDS | CLOSING_WORDS | frozenset(_PROSE_WORDS.split())
# Section names of scripts written without word spaces, as reasoning models head their answers
# ("### 最终答案", "**解题步骤**", "## 정답", "## 最終的な答え"): a heading, never a value.
_SECTION_WORDS = frozenset(["最终答案", "最終答案", "答案", "正确答案", "解题步骤", "解题过程", "解题思路", "解答", "解析", "步骤", "分析", "思路", "总结", "總結", "结论", "結論", "计算", "計算", "验证", "驗證", "答え", "最終的な答え", "解説", "解き方", "정답", "최종", "풀이", "해설", "결론", "답"])
_MAX_SLOTS = 64


def unread_slot_words(text: str, para_start: int, start: int) -> list[str]:
    """The unread words standing in a value's slot in ``text[para_start:start]`` (module doc),
    in order; at most ``_MAX_SLOTS``."""
    found: list[str] = []
    own_line = text.rfind("\n", 0, start)  # "$" matches where the search stops: not a line end
    lo = max(para_start, start - READ_BACK_CHARS)
    # (each branch opens a line or follows a sentence's stop and one space)
    for m in _anchored(_SLOT_RE, text, lo, start, _sentence_starts(text, lo, start)):
        word = next(g for g in m.groups() if g is not None)
        if (m.group("alone") is not None or m.group("labelled") is not None) and m.end() > own_line:
            continue  # the answer's own line: "答案是-5。"
        before = text[m.start() - 2 : m.start()] if m.start() >= 2 else ""
        if m.group("alone") is not None and (
                len(word) < 2 or (before[-1:] == "\n" and (before[0].isalnum() or before[0] in ",_"))):
            continue  # "...apple snails in 5\ndays.": a line that goes on from the one before
        if any(w.lower() not in _READ_WORDS and w not in _SECTION_WORDS
               for w in re.split(r"[-'\u2019 ]", word) if w):
            found.append(word)
            if len(found) >= _MAX_SLOTS:
                break
    return found
