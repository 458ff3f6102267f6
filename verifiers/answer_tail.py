r"""What may follow the final commitment (the ``tail`` of the grammar in
``verifiers.math_extract``): ``hedge_after`` and the regexes it reads with (retractions,
approximations, doubt, scale words), another value after the answer (``_other_value``),
later sentences that are no allow-listed closing (``_unread_later``) or deny the answer
(``_later_denial``), and the split of a ``####`` line or an answer clause into its amount and
tail (``split_line_answer``). The answer's own sentence is read by
``verifiers.answer_sentence``, values and checks ``... = final`` by
``verifiers.answer_values``. Moved out of ``verifiers.math_extract`` unchanged (issue 30)."""

from __future__ import annotations

import bisect
import re

from verifiers.answer_closing import closing_phrase_only, unread_closing
from verifiers.answer_sentence import (
    _CLOSED_HEAD_RE,
    _DISPLAY_CLOSE_RE,
    _LATIN_WORD_RE,
    _MODULUS_RE,
    _OWN_END_RE,
    _own_sentence,
    _skip_spaces,
)
from verifiers.answer_values import (
    _NUMBER_WORDS,
    _TAIL_EXTRA_VALUE_RE,
    _TAIL_VALUE_RE,
    _UNIT_POWER_RE,
    _clean,
    _is_check,
    _seen,
    _sentence_end,
    _sentence_start,
    _value_keys,
)
from verifiers.number_words import read_number_words
from verifiers.qualifier_words import APPROXIMATE_WORDS, BOUND_WORDS
from verifiers.types import HEDGED, MALFORMED
from verifiers.unit_words import read_words

MAX_TAIL_CHARS = 50_000  # a longer text after the answer cannot be checked in time: refused


# Between an answer and what follows: spaces (also LaTeX's \, \quad ~), newlines, stray
# separators and delimiters.
_JUNK_RE = re.compile(r"(?:[\s,;:*$~]|\\[,;:! ]|\\q?quad(?![A-Za-z]))*")


_LATIN_QUALIFIERS = "|".join(sorted(
    (r"\s+".join(map(re.escape, w.split())) for w in (*APPROXIMATE_WORDS, *BOUND_WORDS)
     if w.isascii() or re.fullmatch(r"[\w\s'-]+", w) and re.search("[A-Za-z]", w)), key=len, reverse=True))
_APPROX_AFTER_RE = re.compile(
    # not "\approx" (a relation the comparison checks: "\pi \approx 3.14" is the exact answer
    # with its rounded value, accepted only when that value is right)
    r"\s*(?:\(\s*)?(?<!\\)(?:approx\.?|approximately|roughly|or\s+so|ish|-ish|give\s+or\s+take|"
    r"more\s+or\s+less|at\s+least|at\s+most|or\s+more|or\s+less|or\s+(?:higher|lower|greater|"
    # a bound: "\boxed{7} or higher", "\boxed{7} and up", "\boxed{7} max"
    r"fewer|above|below|over|under)|and\s+(?:up|above|over|below|under)|max|maximum|"
    # (not "min": after a number it is minutes, "36 min")
    r"minimum|tops|upper\s+bound|lower\s+bound|upwards\s+of|"
    # a plus that nothing follows: "or more" ("#### \u20ac333990+", "641,858 rupees+.")
    r"\+(?=[ \t]*(?:[.!,;)]|\Z|\n))|"
    # the same after the value in the other languages a policy writes ("#### 58 pelo menos",
    # "\boxed{400} hoogstens", "711 mindestens", "12 ou plus"), and the Latin-script bound
    # and estimate words that stand before a value ("minst", "ongeveer")
    r"(?<![A-Za-z])(?:mindestens|wenigstens|h\u00f6chstens|hoechstens|(?:oder|of|ou|o|eller|lub)\s+"
    r"(?:mehr|weniger|meer|minder|plus|moins|m\u00e1s|menos|mais|pi\u00f9|meno|mer|mindre|fler|wi\u0119cej|mniej)|"
    r"au\s+(?:moins|plus)|al\s+(?:menos|m\u00e1ximo|maximo|m\u00ednimo|minimo)|por\s+lo\s+menos|como\s+(?:m\u00ednimo|m\u00e1ximo|minimo|maximo)|ao\s+menos|"
    r"environ|etwa|ungef\u00e4hr|ca\.\s|"
    rf"{_LATIN_QUALIFIERS}))(?![A-Za-z])",
    re.IGNORECASE,
)


# Later in the completion, anywhere: words that take the answer back or offer another.
# "Wait", "hmm" and "let me check" alone take nothing back: reasoning models write "Wait, let
# me verify this. Yes, it checks out." after answers they keep.
_RETRACT_RE = re.compile(
    r"\b(?:no,?\s+wait|wait,?\s+no\b|nope|scratch\s+that|not\s+sure|unsure|not\s+certain|"
    r"maybe\s+not|or\s+maybe|or\s+possibly|or\s+perhaps|or\s+is\s+it\b|or\s+not\s*\?|"
    # "Alternatively, it is $6$" offers another answer; "Alternatively, we can plug in ..."
    # (a second method, common in worked solutions) does not.
    r"alternatively,?\s+(?:(?:it|the\s+\w+|this|that|we\s+get|one\s+gets|x)\s+"
    r"(?:is|are|could\s+be|might\s+be|would\s+be|may\s+be|=|gives?)\s*)?"
    r"(?=\$|\\\(|\\boxed|[-+]?\d)|"
    r"actually,?\s+(?:no|not|it(?:'s|\s+is|\s+should)|the\s+(?:answer|total|result)|i\s+think)|"
    r"(?:that'?s|that\s+is|this\s+is|it'?s|it\s+is)\s+(?:wrong|incorrect|not\s+right)|"
    r"i\s+(?:made|make)\s+an?\s+(?:mistake|error)|i\s+was\s+wrong|correction\b|"
    r"(?:answer|result|total)\s+(?:is|was)\s*(?:not|n't|wrong|incorrect)\b|"
    r"on\s+second\s+thought|let\s+me\s+(?:redo|reconsider)|never\s*mind|oops|"
    r"just\s+kidding|j/?k\b|(?:was|is)\s+a\s+typo|typo\b|incorrect[oa]\b|falsch\b|faux\b|"
    r"hmm+,?\s+no\b|could\s+be\s+wrong|maybe\s+(?:it'?s\s+|it\s+is\s+)?(?=\$|\\\(|\\boxed|[-+]?\d)|unless\s+(?:it|the\s+\w+|this|that|x)\b|if\s+not,|"
    r"(?:could|might|may|can)\s+(?:also|instead|even)\s+be\b|actually,?\s+(?=\$|\\\(|\\boxed|[-+]?\d)|"
    # other languages: French, German, Spanish, Chinese ("not right", "wrong", "should be")
    r"non,?\s+attend|nein\b|no,?\s+espera|en\s+realidad|\u4e0d\u5bf9|\u9519\u4e86|\u5e94\u8be5\u662f|(?:it|that|this|the\s+answer)\s+(?:should|must)\s+(?:be|have\s+been)\s+"
    r"(?=\$|\\\(|\\boxed|[-+\u2212]?\d))",
    re.IGNORECASE,
)


# Closing math delimiters and bold right after an answer: "$\boxed{5}$ or 6" offers 6.
_CLOSING_RE = re.compile(r"(?:[ \t]*(?:\$\$?|\\\)|\\\]|\*\*|`))+")


_CONFIDENCE_HINT_RE = re.compile(r"confidence|certainty", re.IGNORECASE)
_CONFIDENCE_RE = re.compile(
    r"[ \t]*\([ \t]*(?:confidence|certainty)[ \t]*[:=][ \t]*\d+(?:\.\d+)?[ \t]*%?[ \t]*\)"
    r"|[ \t]*<confidence>[ \t]*\d+(?:\.\d+)?[ \t]*%?[ \t]*</confidence>"
    # on its own line, or as the last sentence of the answer's line ("144. Confidence: 0.9",
    # "306. — Confidence level: high")
    r"|(?:\n|(?<=[.!?])[ \t]+(?:[\u2013\u2014-][ \t]*)?)[ \t*_#>-]*(?:confidence|certainty)(?:[ \t]+(?:level|score))?[ \t*_]*[:=]"
    r"[ \t*_]*(?:\d+(?:\.\d+)?[ \t]*%?|(?:very[ \t]+)?(?:high|medium|moderate|low))[ \t*_.]*(?=\n|\Z)",
    re.IGNORECASE,
)


def confidence_start(text: str) -> int | None:
    """Where a stated confidence that ends ``text`` starts (``... Confidence: 90%``), or None."""
    tail = text.rstrip()
    if not _CONFIDENCE_HINT_RE.search(tail, max(0, len(tail) - 200)):
        return None
    for m in _CONFIDENCE_RE.finditer(tail, max(0, len(tail) - 200)):
        if m.end() >= len(tail.rstrip(" \t*_.")):
            return m.start()
    return None


def hedge_after(text: str, end: int, answers: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """Why the text after an answer ending at ``end`` is no allow-listed tail, or None: the
    rule's step 3, shared with the countdown verifier. Returns (reason, why).

    The tail may hold closing markup and punctuation, units and prose, a restatement of the
    answer (one of ``answers``), and a check whose result is the answer (``2 + 3 = 5``).
    Any other value there (a number, a number word, a box) is an alternative: ``hedged``."""
    closing = _CLOSING_RE.match(text, end)
    after = closing.end() if closing else end
    if text[after : after + 1].isdigit() and (after > end or text[end - 1 : end] in "$)]`"):
        return MALFORMED, "a digit glued after the answer's closing delimiter"
    end = after
    if _OPERATOR_AFTER_RE.match(text, end):
        return MALFORMED, "the answer is part of a larger expression"
    rest = text[end:].rstrip()
    if rest.endswith("</answer>") and "<answer>" not in rest and not rest[: -len("</answer>")].strip(" \t\n$*_`"):
        return None  # the answer tag that holds the box closes on its own line ("\\boxed{49}$\n</answer>")
    if len(rest) > MAX_TAIL_CHARS:
        return MALFORMED, f"more than {MAX_TAIL_CHARS} characters after the final answer"
    if _CONFIDENCE_HINT_RE.search(rest):
        # "Confidence: 0.9", "(confidence: 90%)", "<confidence>0.9</confidence>": how sure the
        # answer is, never a second answer (calibration prompts ask for it)
        rest = _CONFIDENCE_RE.sub("", rest).rstrip()
    p = _JUNK_RE.match(rest).end()  # type: ignore[union-attr] - always matches
    if rest.startswith("?", p) or rest.startswith("?", _sentence_end(rest, 0)):
        return HEDGED, "the answer's sentence is a question"
    if _APPROX_AFTER_RE.match(rest, p):
        return HEDGED, "an approximate answer"
    if _SCALE_AFTER_RE.match(rest, p):
        return MALFORMED, "a word after the answer scales it"
    doubt = _DOUBT_RE.search(rest, p, _sentence_end(rest, p))
    # a negation on a later line has its own subject ("It is not hard to check"): the
    # later-sentence rule below reads it
    if doubt is not None and not ("\n" in rest[:p] and _NEGATION_ONLY_RE.fullmatch(doubt.group(0))):
        return HEDGED, "the answer's sentence doubts it"
    retraction = _RETRACT_RE.search(rest)
    if retraction is not None:
        return HEDGED, f"taken back or doubted later: {retraction.group(0)!r}"
    own = _own_sentence(_FIGURE_RE.sub(" ", rest) if "[asy]" in rest else rest, answers)
    if own is not None:
        return own
    denial = _later_denial(rest, answers)
    if denial is not None:
        return denial
    if "\\boxed" in rest or "\\fbox" in rest:
        return MALFORMED, "a box opened after the answer"
    modulus = _MODULUS_RE.match(rest, p)
    if modulus is not None:  # a congruence's modulus dresses the answer: "\boxed{3} \pmod{7}"
        rest = rest[modulus.end() :]
    # An Asymptote figure's code is drawn, not read: its numbers are coordinates (a box or
    # an answer inside one was refused above, with the rest of the tail).
    other = _other_value(_FIGURE_RE.sub(" ", rest), answers)
    if other is not None:
        return HEDGED, f"another value after the final answer: {other[:40]!r}"
    return _unread_later(_FIGURE_RE.sub(" ", rest) if "[asy]" in rest else rest, answers)


def _own_start(rest: str) -> int:
    """Where the answer's own sentence starts in ``rest``: after a display's close on the next
    line (``\\boxed{5}\n\\]``)."""
    start = 0
    for _ in range(8):
        close = _DISPLAY_CLOSE_RE.match(rest, start)
        if close is None:
            break
        start = close.end()
    return start


# "Yes" answering a question about the answer ("Wait, is that right? Yes: 2 + 3 = 5.").
_YES_RE = re.compile(r"[\s*_>#-]*(?:yes|yeah|indeed|correct)\b", re.IGNORECASE)


def _unread_later(rest: str, answers: tuple[str, ...]) -> tuple[str, str] | None:
    """Why a sentence after the answer's own sentence is not positively readable, or None.
    Each later sentence must be closing prose (``verifiers.answer_closing``), a restatement
    of the answer or a check whose result is it, in allow-listed words; a question must be
    answered "yes" by the next sentence. The values were read by ``_other_value`` already."""
    stop = _OWN_END_RE.search(rest, _own_start(rest))
    if stop is None:
        return None
    pos, question = stop.end(), None
    for m in _OWN_END_RE.finditer(rest + "\n", pos):
        sentence = rest[pos : m.start()]
        pos = m.end()
        if not sentence.strip(" \t*#>-_`$"):
            continue
        if question is not None:
            if not _YES_RE.match(sentence):
                return HEDGED, f"a question about the answer, not answered yes: {question[:40]!r}"
            question = None
        unread = unread_closing(sentence)
        if unread is not None and _has_value(sentence):
            unread = unread_closing(sentence, math=True)
        if unread is not None:
            return HEDGED, (
                f"unread_tail: a later sentence is no allow-listed closing ({unread[:20]!r}): "
                f"{sentence.strip()[:40]!r}"
            )
        if m.group(0) in "?\uff1f\u061f" and not closing_phrase_only(sentence):
            question = sentence.strip()  # (not "Does that help?": a help offer asks nothing of it)
    if question is not None:
        return HEDGED, f"a question about the answer, not answered yes: {question[:40]!r}"
    return None


def _has_value(sentence: str) -> bool:
    return any(c.isdigit() for c in sentence) or _TAIL_VALUE_RE.search(sentence) is not None


# Words that multiply or divide the value before them (a closed class: multipliers, powers,
# operations, ordinals as denominators): "\\boxed{5} lakh" is 500000, "\\boxed{5} squared" 25.
# Not "dozen" or "score": "how many dozen" is answered "5 dozen", a count in that unit.
_SCALE_AFTER_RE = re.compile(
    r"(?:[²³¹⁰⁴-⁹]|(?:lakhs?|crores?|grand|squared|cubed|doubled|factorial|"
    # other languages' scale words: "2 millones", "98 Millionen", "3 milliards"
    r"mill(?:ones?|ions?|ionen|iarden?|iards?|i\u00f3n|ion)|bill(?:ones?|ionen)|mil|tausend|"
    r"mille|milhares|milh(?:\u00f5es|\u00e3o|oes|ao)|"
    # their abbreviations: "6650 tys.", "834 thous.", "979 tis.", "5 Tsd.", "3 mln", "2 mrd"
    r"thous|tys|tis|tsd|mln|mld|mrd|bln|"
    r"tripled|quadrupled|halved|(?:four|fif|six|seven|eigh|nin|ten|eleven|twelf|"
    r"(?:thir|four|fif|six|seven|eigh|nine)teen|(?:twen|thir|for|fif|six|seven|eigh|nine)tie|"
    r"hundred|thousand|million|billion)ths|halves|thirds|quarters)\b)",
    re.IGNORECASE,
)


_FIGURE_RE = re.compile(r"\[asy\].*?(?:\[/asy\]|\Z)", re.DOTALL)


_NEGATION_ONLY_RE = re.compile(r"(?:is|are|was|were)\s+not|isn't|aren't|wasn't", re.IGNORECASE)


_DOUBT_RE = re.compile(
    r"\b(?:probably|maybe|perhaps|possibly|likely|i\s+(?:think|guess|believe)|"
    # a negation of the answer in its own sentence: "5 is not the answer", "0이 아닙니다"
    r"(?:is|are|was|were)\s+not|isn't|aren't|wasn't|not\s+(?:the\s+answer|correct|right)|"
    r"nicht|n'est\s+pas|no\s+es|"
    # a judgement of falsity in its own sentence: "\boxed{62}, in error", "(erroneous)" (the
    # common words, "wrong", "incorrect", are read by the parenthesis and later-sentence rules:
    # "(option B is incorrect)" judges something else)
    r"in\s+error|erroneous\w*|bogus|spurious|fallacious)\b|\uc544\ub2c8|\uc544\ub2d9|\u3067\u306f\u306a\u3044|"
    r"\u3058\u3083\u306a\u3044|\u4e0d\u662f|\u4e0d\u5bf9|\u9519",
    re.IGNORECASE,
)


def _other_value(rest: str, answers: tuple[str, ...]) -> str | None:
    """The first value in ``rest`` that is neither a restatement of one of ``answers`` nor
    part of a check whose result is one (a sentence ending ``= answer``), or None. One pass:
    sentences are cut as the values are met."""
    keys: set[str] | None = None  # read only when the tail holds a value (most hold none)
    sentence_start, sentence_stop, checked = -1, -1, False
    skip_until = -1
    for m in _tail_values(rest):
        if keys is None:
            keys = {k for a in answers for k in _value_keys(a)}
        if m.start() < skip_until:
            continue
        if keys and m.group(0)[:1].isalpha():
            # a run of number words restating the answer: "21 (twenty-one)"
            lead = _ONE_BEFORE_RE.search(rest, max(0, m.start() - 8), m.start())  # "one hundred"
            run = _NUMBER_WORD_RUN_RE.match(rest, m.start() if lead is None else lead.start())
            spelled = None if run is None else read_number_words(run.group(0))
            if spelled is not None and not keys.isdisjoint(_value_keys(str(spelled))):
                skip_until = run.end()  # type: ignore[union-attr]
                continue
        if _UNIT_POWER_RE.search(rest, max(0, m.start() - 8), m.start()):
            continue
        if m.start() >= sentence_stop:
            sentence_start = _sentence_start(rest, m.start())
            sentence_stop = _sentence_end(rest, m.start())
            checked = _is_check(rest[sentence_start:sentence_stop], keys)
        if checked:
            continue
        token = m.group(0)
        # a restatement restates only when its sentence does not deny it ("Not 6.",
        # "\\boxed{6} \\neq 6", "though 6 is incorrect")
        if (
            keys
            and not keys.isdisjoint(_value_keys(token))
            and not _denied(rest, sentence_start, m.start(), sentence_stop)
        ):
            continue
        return rest[max(sentence_start, m.start() - 20) : m.end() + 20].strip()
    return None


_NUMBER_WORD_RUN_RE = re.compile(
    rf"(?:{_NUMBER_WORDS}|one|and|a)\b(?:[ \t-]+(?:{_NUMBER_WORDS}|one|and)\b)*", re.IGNORECASE
)


_ONE_BEFORE_RE = re.compile(r"\b(?:one|a)[ \t-]+\Z", re.IGNORECASE)


def _tail_values(rest: str) -> list[re.Match[str]]:
    """The values of a tail in order: ``_TAIL_VALUE_RE``'s and ``_TAIL_EXTRA_VALUE_RE``'s."""
    found = list(_TAIL_VALUE_RE.finditer(rest))
    extra = list(_TAIL_EXTRA_VALUE_RE.finditer(rest))
    if not extra:
        return found
    return sorted(found + extra, key=lambda m: m.start())


_NOT_EQUAL_BEFORE_RE = re.compile(r"(?:\\neq?(?![A-Za-z])|\\not\s*=|\u2260|!=|=/=)[\s${]*\Z")


_WRONG_RE = re.compile(r"\b(?:wrong|incorrect|false|not\s+(?:it|so|true))\b", re.IGNORECASE)


def _denied(rest: str, start: int, at: int, stop: int) -> bool:
    """Whether the value at ``rest[at]`` is denied in its sentence ``rest[start:stop]``: a word
    that denies or bounds it just before it, a "not equal" sign, or doubt in the sentence."""
    before = rest[max(start, at - 40) : at]
    if _DENIED_BEFORE_RE.search(before) or _NOT_EQUAL_BEFORE_RE.search(before):
        return True
    return bool(_DOUBT_RE.search(rest, start, stop) or _WRONG_RE.search(rest, start, stop))


# A later sentence that takes the answer back without a number: its subject is the answer
# (a pronoun or "the answer", after an interjection) and its predicate is negated or judges
# it wrong; or it tells the reader to disregard what came before.
_INTERJECTION = (
    r"(?:(?:hmm+|wait|oh|ah|actually|but|so|no|ok(?:ay)?|well|um+|uh|hm|moment|espera|attends?|"
    r"\u7b49\u7b49|\u7b49\u4e00\u4e0b|\u55ef|\u54e6|\u4e0d\u8fc7)[\s,!.\u2014\uff0c-]+)*"
)


_LATER_SUBJECT_RE = re.compile(
    _INTERJECTION
    + r"(?:that|this|it|which|those|these|the\s+above|(?:the|my|this|that|our)\s+(?:final\s+)?"
    r"(?:answer|result|solution|value|number|total|computation|calculation|reasoning)|"
    r"everything(?:\s+above)?|i|i'm|i've|das|dies|es|eso|esto|cela|\u00e7a|c'est|"
    + _seen("\u044d\u0442\u043e")
    + r"|"
    r"\u8fd9|\u90a3)(?![A-Za-z])",
    re.IGNORECASE,
)


_LATER_NEGATION_RE = re.compile(
    # a negated judgement of truth ("doesn't work", "can't be right", "not sure", "not it"),
    # not any negation ("It is not hard to check that ...")
    r"(?:\b(?:not|never)|n't)\s+(?:\w+\s+)?(?:right|correct|work|works|true|valid|it|the\s+answer|"
    r"make\s+sense|add\s+up|hold|check\s+out|sure|confident|certain)\b|"
    r"\b(?:wrong|incorrect|false|invalid|mistaken|bogus|nonsense|a\s+mistake|an\s+error|in\s+error|"
    r"erroneous\w*|errant|spurious|fallacious|"
    r"retract|withdraw|take\s+(?:it|that|this)\s+back|unsure|uncertain|falsch|mal|faux|fausse|"
    r"incorrecto|err\u00f3neo|"
    + _seen("\u043d\u0435\u0432\u0435\u0440\u043d\u043e|\u043d\u0435\u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d\u043e")
    + r")\b|"
    r"\u4e0d\u5bf9|\u9519|\u4e0d\u662f",
    re.IGNORECASE,
)


_LATER_IMPERATIVE_RE = re.compile(
    _INTERJECTION
    + r"(?:please\s+)?(?:ignore|disregard|forget|scratch|strike|discard|retract|withdraw|"
    r"cancel|undo|delete|erase)\b",
    re.IGNORECASE,
)


# A negation right before a restatement of the answer: "Not 6.", "it's not 95", "6 \ne".
_NEGATED_VALUE_RE = re.compile(
    r"(?:\b(?:not|never|no|isn't|aren't|wasn't|nicht|pas|no\s+es|non|nie|\u043d\u0435|\u043d\u0435\u0442)\b|n't\b|"
    r"\u4e0d\u662f|\u4e0d|\u975e|\\neq?(?![A-Za-z])|\\not\s*=|!=|\u2260)"
    r"[\s$*(]*",
    re.IGNORECASE,
)


# A multiple-choice answer ("B", "(B)", "\\text{(B)}") and another choice named after it.
_CHOICE_RE = re.compile(r"\(?\s*([A-E])\s*\)?")


_OTHER_CHOICE_RE = re.compile(
    r"\(\s*([A-E])\s*\)|\b(?i:option|choice|answer)\s+\(?([A-E])\b|"
    r"^\s*(?i:or|and|/)?\s*([A-E])\b"
)


def _later_denial(rest: str, answers: tuple[str, ...]) -> tuple[str, str] | None:
    """A sentence after the answer that denies it: one that names the answer's value again
    with a negation on it or in its predicate ("Not 6.", "6 is wrong", "though 23 is
    incorrect"), or one without a value whose subject is the answer (a pronoun) and whose
    predicate is negated ("That doesn't work.", "Ignore the above.")."""
    choice = _CHOICE_RE.fullmatch(answers[0].strip()) if answers else None
    if choice is not None:
        for m in _OTHER_CHOICE_RE.finditer(rest[:2_000]):
            letter = next(g for g in m.groups() if g is not None)
            if letter.upper() != choice.group(1):
                return HEDGED, f"another choice after the answer: {m.group(0)!r}"
    keys: set[str] | None = None
    pos = 0
    for m in _OWN_END_RE.finditer(rest + "\n"):  # each sentence's work is linear in it
        sentence = rest[pos : m.start()]
        pos = m.end()
        stripped = sentence.strip(" \t*#>-,;:()$`\\[]")
        if not stripped:
            continue
        if _LATER_IMPERATIVE_RE.match(stripped):
            return HEDGED, f"taken back later: {stripped[:40]!r}"
        values = list(_TAIL_VALUE_RE.finditer(sentence))
        if not values:
            subject = _LATER_SUBJECT_RE.match(stripped)
            if subject is not None and _LATER_NEGATION_RE.search(stripped, subject.end()):
                return HEDGED, f"taken back later: {stripped[:40]!r}"
            continue
        if keys is None:
            keys = {k for a in answers for k in _value_keys(a)}
        checked: bool | None = None
        negations: list[int] | None = None
        denied_at: set[int] | None = None
        texts = {_clean(a) for a in answers}
        for n, v in enumerate(values):
            # the answer as written, or (for the first values: a parse costs) any spelling of it
            if v.group(0) not in texts and (
                n >= 64 or not keys or keys.isdisjoint(_value_keys(v.group(0)))
            ):
                continue
            if denied_at is None:  # where a negation's reach ends: one scan per sentence
                denied_at = {m.end() for m in _NEGATED_VALUE_RE.finditer(sentence)}
            if v.start() in denied_at:
                return HEDGED, f"the answer's value denied later: {sentence.strip()[:40]!r}"
            if negations is None:  # one scan per sentence, then bisected per value
                negations = [m.start() for m in _LATER_NEGATION_RE.finditer(sentence)]
            k = bisect.bisect_left(negations, v.end())
            if k < len(negations) and negations[k] <= v.end() + 200:
                checked = _is_check(sentence, keys) if checked is None else checked
                if not checked:
                    return HEDGED, f"the answer's value denied later: {sentence.strip()[:40]!r}"
    return None


# After a box, on its line: an operator or a separator and another value, "\boxed{5} + 6",
# "\boxed{5} = 6", "\boxed{5} / 6", "\boxed{5} - 1", "\boxed{5} -- or 6".
_OPERATOR_AFTER_RE = re.compile(
    r"[ \t]*(?:[-+*/|&=<>\u2013\u2014\u2212\u2227\u2228]+|"
    r"\\(?:times|cdot|div|mid|[vV]ert|\||parallel|pm|mp|[lg]eq?|[lg]t)"
    r"(?![A-Za-z]))[ \t]*(?:or[ \t/|]+)?(?:\$|\\\(|\\boxed|\\frac|[-+\u2212]?\.?\d)"
)


# Before an unboxed value: a word that denies or bounds it ("not 5", "greater than 5", "from 5").
_DENIED_BEFORE_RE = re.compile(
    # ("from" bounds: "from 5 to 6"; not "working backwards from 43", a check that starts there)
    r"\b(?:not|no|never|nor|neither|except|without|but|than|(?<!\bbackwards\s)(?<!\bbackward\s)from|between|exceeds?|"
    # "to" after no verb of arriving ("from 5 to 6", "up to 6"; not "comes to 6", "adds up to 6")
    r"(?<!\bcomes\s)(?<!\bcame\s)(?<!\bcome\s)(?<!\bamounts\s)(?<!\bamounted\s)(?<!\bamount\s)"
    r"(?<!\badds\sup\s)(?<!\badded\sup\s)(?<!\bsums\sup\s)to|"
    r"exceeding|over|under|above|below|beyond|besides|instead\s+of|cannot(?:\s+be)?|"
    r"(?:is|are|was|were|ai|wo|ca|would|could|should|must|might|need|does|do|did)n['\u2019]t"
    r"(?:\s+(?:be|equal))?)"
    r"[\s$*(]*\Z"
    # other languages, without \b (no word boundary inside CJK text)
    r"|(?:\u4e0d\u662f|\u4e0d\u7b49\u4e8e|\u5e76\u975e|\u4e0d|\u975e|\u6ca1\u6709|\u9664\u4e86|"
    r"\u3067\u306f\u306a\u3044|\uc544\ub2c8|\b(?:nicht|kein|pas|ne|non|nie|\u043d\u0435|no\s+es|"
    r"n\u00e3o\s+\u00e9|mais\s+que|m\u00e1s\s+que|plus\s+que|gr\u00f6\u00dfer\s+als|"
    r"non\s+(?:\u00e8|e|est)|nie\s+jest|bukan|hindi|kh\u00f4ng(?:\s+ph\u1ea3i)?|"
    r"mehr\s+als|weniger\s+als|m\u00e1s\s+de|menos\s+de|plus\s+de|moins\s+de|"
    r"inte|ei\s+ole|ikke|niet|nem|\u03b4\u03b5\u03bd(?:\s+\u03b5\u03af\u03bd\u03b1\u03b9)?|"
    + _seen("\u0431\u043e\u043b\u044c\u0448\u0435|\u043c\u0435\u043d\u044c\u0448\u0435|\u043d\u0435")
    + r")\b"
    r"|\u5927\u4e8e|\u5c0f\u4e8e|\u8d85\u8fc7|\u4e0d\u5230)[\s$*(]*\Z",
    re.IGNORECASE,
)


# A ``####`` line's or an answer clause's amount, then what follows it on the line.
_LINE_AMOUNT_RE = re.compile(r"\$?\s*[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d.,]*\d)")
# What may start the rest of the line for it to be read as a tail: a word of two letters or
# more, a parenthesis, an end-of-proof or check mark (after closing markup). A digit, an
# operator or a fraction after the amount belongs to it ("2 1/2", "5 \frac{1}{2}").
_LINE_REST_RE = re.compile(
    r"(?:\s|\$|\*\*|\\[,;: ])*(?:[A-Za-z\u00c0-\u024f]{2}|\(|[\u220e\u25a0\u25a1\u2713\u2714\u2705\u3002]|"
    r"\\(?:blacksquare|square|Box|qed|checkmark)(?![A-Za-z]))"
)
# Words after an amount that make it another math value: "5 pi" is 5π, "2 sqrt 3" a radical.
_MATH_WORD_RE = re.compile(
    r"(?:\s|\$|\*\*)*(?:pi|tau|sqrt|root|roots|sin|cos|tan|log|ln|exp|inf|infinity|mod)\b",
    re.IGNORECASE,
)
_UNIT_RUN_RE = re.compile(r"[ \t]+([A-Za-z]+(?:[ \t]+[A-Za-z]+){0,3})")


def split_line_answer(answer: str) -> tuple[str, tuple[str, str] | None] | None:
    """A ``####`` line's or an answer clause's text read as its amount and a tail
    (``57 ∎``, ``18 total``, ``57 That is our answer.``, ``5 (guess)``): ``(amount with the
    unit words the comparators read, why the rest is no allow-listed tail or None)``; None
    when the comparators read the text whole, as before (``5 thousand``, ``2 1/2``,
    ``1 more``: a word right after the amount that compares or scales it stays with it)."""
    m = _LINE_AMOUNT_RE.match(answer)
    if m is None or not _LINE_REST_RE.match(answer, m.end()) or _MATH_WORD_RE.match(answer, m.end()):
        return None
    if answer.startswith("(", m.end()):
        return None  # "3(x+1)", "2(3)": a parenthesis glued to the amount multiplies it
    keep = m.end()
    run = _UNIT_RUN_RE.match(answer, keep)
    if run is not None:  # "10 cents each": keep the unit the comparators check
        words = list(re.finditer(r"[A-Za-z]+", run.group(0)))
        for n in range(len(words), 0, -1):
            if read_words(" ".join(w.group(0) for w in words[:n])) is not None:
                keep = run.start() + words[n - 1].end()
                break
    if not answer[keep:].strip() or answer[keep:].lstrip().startswith(("/", "^", "_")):
        return None  # nothing after the unit, a rate ("eggs/day") or a power ("inches^2")
    head = _LATIN_WORD_RE.match(answer, _skip_spaces(answer, keep))
    if head is not None and (_CLOSED_HEAD_RE.fullmatch(head.group(0)) or _COMPARE_HEAD_RE.fullmatch(head.group(0))):
        return None
    value = m.group(0).lstrip("$").strip()
    # the whole rest is read, unit words included: "1 als $n$ even is" conditions it
    return answer[:keep].strip(), hedge_after(answer, m.end(), (value,))


_COMPARE_HEAD_RE = re.compile(r"more|less|fewer|extra|additional|again|times|percent", re.IGNORECASE)
