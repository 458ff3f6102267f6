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

When the final answer is a value, a letter chosen in words (``Option B is correct.``, ``The
answer is (B).``, ``I choose C``) offers the value its option lists (``(B) 6``), read from the
options the text spells out: ``The options are (A) 5, (B) 6. Option B is correct. \boxed{5}``
offers 6 and 5.

>>> chosen_option_values("(A) 5, (B) 6. Option B is correct. ", 35, "5")
('6',)
"""

from __future__ import annotations

import re

from verifiers.answer_values import _clean, _sentence_end
from verifiers.labelled_lines import _ANSWER_NOUN, _NOUN_FIRST
from verifiers.paragraph_commitments import _CHOICE_RE

__all__ = ["as_option_values", "choice_closing", "chosen_option_values", "listed_options", "offered_choices"]

# A choice letter right after an answer noun of any language, and nothing after it but a
# polite ending and a stop: "Ответ: B", "答案是B", "정답은 B입니다.", "La respuesta es (B).", "The
# correct option is A.". The noun and the letter are joined by a colon or a copula only:
# "Ответ, наверное, B" is no form.
# (English "The answer is B" is an answer clause, read before any fallback.)
_CHOICE_CLOSING_RE = re.compile(
    # ("正确答案是E", "最终答案是E": "correct", "final" before the noun, no space between)
    r"(?:^|(?<=[\s*_>])|(?<=\u6b63\u786e)|(?<=\u6b63\u78ba)|(?<=\u6700\u7ec8)|(?<=\u6700\u7d42))"
    rf"(?i:{_NOUN_FIRST}(?:{_ANSWER_NOUN}|option|choice))[ \t]*"
    # ("La respuesta correcta es la B.", "Đáp án đúng là A.": "correct" or "final" after the noun,
    # an article and "option" before the letter)
    r"(?i:(?:correct[ao]?|correcte|correta|corretta|richtige|final|finale|\u0111\u00fang|cu\u1ed1i[ \t]+c\u00f9ng|"
    r"\u0627\u0644\u0635\u062d\u064a\u062d\u0629)[ \t]*)?"
    r"(?:[:\uff1a]|(?i:is|es|est|ist|\u00e9|\u00e8|\u00e4r|er|jest|je|este|on|l\u00e0|\u044d\u0442\u043e|"
    r"\u0647\u064a|\u0647\u0648)(?![^\W\d_])"
    # ("答案选A": "choose")
    r"|[\u662f\u4e3a\u70ba\u306f\uc740\ub294\u9009\u9078])?[ \t]*(?i:(?:la|el|le)[ \t]+)?"
    r"(?i:(?:opci\u00f3n|option|op\u00e7\u00e3o|opzione)[ \t]+)?[*_]*"
    r"(?P<letter>\(?[A-J]\)?)[*_]*[ \t]*(?:\uc785\ub2c8\ub2e4|\u3067\u3059|\u0939\u0948)?[ \t]*[.!\u3002\u0964]?[ \t*_]*\Z"
)

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


# The letter first: "Option C is correct.", "Choice (B) is the answer."
_OPTION_CLOSING_RE = re.compile(
    r"(?:^|(?<=[\s*_>]))(?i:option|choice)[ \t]+[*_]*(?P<letter>\(?[A-J]\)?)[*_]*[ \t]+"
    r"(?i:is[ \t]+(?:correct|right|the[ \t]+(?:correct[ \t]+)?answer))[ \t]*[.!]?[ \t*_]*\Z")


def choice_closing(text: str) -> tuple[str, int, int] | None:
    """``(letter, noun_start, end)`` when ``text`` ends with a choice letter after an answer
    noun (the module's closing form), else None.

    >>> choice_closing("So: \u041e\u0442\u0432\u0435\u0442: B"), choice_closing("Answer, maybe, B")
    (('B', 4, 12), None)
    """
    m = _CHOICE_CLOSING_RE.search(text, max(0, len(text) - 200)) or _OPTION_CLOSING_RE.search(
        text, max(0, len(text) - 200))
    return None if m is None else (m.group("letter"), m.start(), m.end())


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


# A letter chosen in words: "Option B is correct", "(B) is the answer", "the answer is (B)",
# "I choose C", "Choice C is right"; not "(B) is wrong" nor "Option B is not correct".
_CHOSEN_RE = re.compile(
    r"(?:(?<![\w(])(?i:option|choice)[ \t]+[*_]*\(?(?P<a>[A-J])\)?|\((?P<b>[A-J])\)|\*\*\(?(?P<c>[A-J])\)?\*\*"
    r"|(?:^|(?<=[.!?:][ \t])|(?<=\n))[ \t*_>]*(?P<f>[A-J]))"
    r"[*_]*[ \t]+(?i:is|would[ \t]+be)[ \t]+(?i:(?:the[ \t]+)?(?:correct|right|best)(?:[ \t]+(?:one|answer|option|choice))?|"
    r"the[ \t]+(?:correct[ \t]+|final[ \t]+)?(?:answer|option|choice))(?![\w])"
    r"|(?<![\w])(?i:(?:answer|option|choice)[ \t]+is|choose|pick|select|go[ \t]+with)[ \t]+(?i:option[ \t]+)?[*_]*"
    # (a lower-case letter only in brackets or before the sentence's end: "a" is an article)
    r"(?:\((?P<d>[A-Ja-j])\)|(?P<e>[A-J])(?![\w(])|(?P<g>[a-j])(?=[*_]*[ \t]*(?:[.!;\n]|\Z)))")
# The same choice said after an answer noun of any language, mid-text ("正解はCです。", "La
# respuesta correcta es la B, ...": the closing form of ``_CHOICE_CLOSING_RE``, anywhere).
_CHOICE_SAID_RE = re.compile(_CHOICE_CLOSING_RE.pattern[: _CHOICE_CLOSING_RE.pattern.rindex(r"[*_]*[ \t]*(?:")]
                             + r"(?![A-Za-z0-9])")
# An option listed with its value: "(B) 6", "B) $6$", "B. 6", "B: 6", "**B** 6" (value: a number,
# or a math span of one short value).
# An option listed as options are: opening its line (after a bullet), after a colon, a
# semicolon or a comma, or after two spaces ("Options: (A) 5, (B) 6", "a) 22", "(a) 27  (b) 23");
# not a letter that names a thing in a sentence ("the lower-paying job (A) 2000", "Job A: $5").
_LISTED_AT = r"(?:^|(?<=\n)|(?<=[:;,])|(?<=[:;,][ \t])|(?<=[ \t]{2})|(?<=\n[-*+][ \t])|(?<=\n[ \t]))"
_OPTION_VALUE_RE = re.compile(
    _LISTED_AT + r"[ \t]*(?:[-*+][ \t]+)?(?:\((?P<l1>[A-Ja-j])\)|(?P<l2>[A-J])[.):]|(?P<l4>[a-j])[.):]"
    r"|\*\*\(?(?P<l3>[A-Ja-j])\)?[.):]?\*\*|\|[ \t]*\(?(?P<l5>[A-Ja-j])\)?[ \t]*\|)[ \t]*"
    r"(?:\$(?P<math>[^$\n]{1,40})\$|(?P<number>[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:/\d+)?)(?!\w|[.,]\d)"
    r"|(?P<frac>[-\u2212]?\\[dt]?frac\{\d+\}\{\d+\}))")
_OPTIONS_WINDOW = 4_000  # characters read back for the options and the choice
# (a cheap scan first: an option's letter and its value, "b) 12", "(C) 7", "**A.** 15")
_LISTING_HINT_RE = re.compile(r"(?<!\w)[A-Ja-j](?:\)|\.|:|\*\*|[ \t]*\|)\**[ \t]*\$?[-+\u2212]?(?:\d|\\[dt]?frac)")
# A letter mentioned after the options are listed, as a choice is: in brackets or bold, or
# standing alone before a stop, a comma, a colon or "is"/"matches"/"fits"/"works" ("Also
# (b).", "Final choice: **B**", "c is the one.", "Réponse : d", "alternativa B."); not in a
# word, a name ("Plan B's"), a path or a number.
_LETTER_MENTION_RE = re.compile(
    r"\((?P<a>[A-Ja-j])\)|\*\*\(?(?P<b>[A-Ja-j])\)?[.:]?\*\*"
    r"|(?<![A-Za-z0-9_'\u2019/.\\-])(?P<c>[A-HJa-j])(?![A-Za-z0-9_'\u2019(])"
    r"(?=[ \t]*(?:[.!?;,:)\u3002\n]|\Z|\u3067\u3059|\uc785\ub2c8\ub2e4)|[ \t]+(?i:is|matches|fits|works|wins)\b)")
_NOT_BEFORE_RE = re.compile(r"(?i:\bnot|n['\u2019]t)[ \t]+(?:\(|\*\*)?\Z")


def chosen_option_values(text: str, before_at: int, answer: str) -> tuple[str, ...]:
    """The values of the options chosen or mentioned as a choice before ``before_at`` (module
    doc) that the text lists, when ``answer`` is no choice letter; ``()`` otherwise. A letter
    whose sentence rules it out (``(A) is wrong``, ``not (B)``) is the working of an
    elimination."""
    if _CHOICE_RE.fullmatch(_clean(answer).strip()):
        return ()
    lo = max(0, before_at - _OPTIONS_WINDOW)
    if _LISTING_HINT_RE.search(text, lo, before_at) is None:
        return ()
    listed, listing_end = _listing(text, before_at)
    if len(listed) < 2:
        return ()
    chosen = {next(g for g in m.groups() if g).upper() for m in _CHOSEN_RE.finditer(text, lo, before_at)}
    chosen |= {m.group("letter").strip("()").upper() for m in _CHOICE_SAID_RE.finditer(text, lo, before_at)}
    for m in _LETTER_MENTION_RE.finditer(text, listing_end, before_at):
        letter = (m.group("a") or m.group("b") or m.group("c")).upper()
        if letter in listed and not _RULED_OUT_RE.search(text, m.end(), min(before_at, _sentence_end(text, m.end()))) \
                and not _NOT_BEFORE_RE.search(text, max(0, m.start() - 8), m.start()):
            chosen.add(letter)
    return tuple(listed[letter] for letter in sorted(chosen) if letter in listed)


def listed_options(text: str, before_at: int) -> dict[str, str]:
    """The value the text lists for each option letter before ``before_at`` (upper case; the
    first listing of a letter counts): ``(A) 5, (B) 6`` gives ``{"A": "5", "B": "6"}``."""
    return _listing(text, before_at)[0]


def _listing(text: str, before_at: int) -> tuple[dict[str, str], int]:
    """``listed_options`` and where its last listed option ends."""
    listed: dict[str, str] = {}
    end = 0
    for m in _OPTION_VALUE_RE.finditer(text, max(0, before_at - _OPTIONS_WINDOW), before_at):
        letter = (m.group("l1") or m.group("l2") or m.group("l3") or m.group("l4") or m.group("l5")).upper()
        listed.setdefault(letter, (m.group("math") or m.group("number") or m.group("frac")).strip())
        end = m.end()
    return listed, end


def as_option_values(text: str, before_at: int, answer: str, offered: tuple[str, ...]) -> tuple[str, ...]:
    """``offered`` with each choice letter read as the value the text lists for its option,
    when ``answer`` is a value: ``So the answer is (c).`` over a list with ``c. 36`` offers 36
    (a letter with no listed value stays a letter)."""
    if _CHOICE_RE.fullmatch(_clean(answer).strip()) or not any(_CHOICE_RE.fullmatch(a.strip()) for a in offered):
        return offered
    listed = listed_options(text, before_at)
    return tuple(listed.get(a.strip().strip("().*").upper(), a) if _CHOICE_RE.fullmatch(a.strip()) else a
                 for a in offered)
