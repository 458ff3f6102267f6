"""Words that make the value after them a bound or an estimate, in the languages a policy
writes: ``答案大约是\\boxed{645}``, ``Svaret är ungefär 531.``, ``Cevap en az 930.`` state no
value. English, German, Spanish and French forms are in the readers' own patterns; these are
the others, kept apart so the list can grow without touching the grammar.

A qualifier counts only right before the value (after an optional copula of a script without
word spaces and an optional math opener), so ``答案最大值是`` ("the maximum value is") and a
question's "at least" earlier in its sentence are left alone.

>>> qualified_before("答案大约是"), qualified_before("Svaret är ungefär "), qualified_before("Svaret är ")
(True, True, False)
"""

from __future__ import annotations

import re

__all__ = [
    "APPROXIMATE_WORDS",
    "BOUND_WORDS",
    "MAYBE_WORDS",
    "qualified_before",
    "qualified_lead",
    "LEAD_CHARS",
]
# How far before the value the patterns below look: a qualifier stands right before it, and
# an unanchored search of a long alternation costs a pass of every word at every position.
_WINDOW = 64

APPROXIMATE_WORDS = (
    # Chinese, Japanese, Korean (no word spaces: matched without \b)
    "大约", "大概", "约为", "约", "約", "およそ", "約為", "대략", "약",
    # Cyrillic, Greek, Hebrew, Arabic, Devanagari, Thai
    "примерно", "около", "приблизно", "приблизительно", "близько", "περίπου", "בערך",
    "تقريبا", "تقريبًا", "حوالي", "लगभग", "करीब", "ประมาณ",
    # Latin script
    "yaklaşık", "aşağı yukarı", "sekitar", "kira-kira", "kurang lebih", "khoảng", "chừng",
    "około", "mniej więcej", "ungefär", "cirka", "omkring", "noin", "suunnilleen", "ongeveer",
    "circa", "cerca de", "aproximadamente", "approssimativamente", "all'incirca",
    "körülbelül", "nagyjából", "přibližně", "zhruba", "aproximativ", "circa", "takriban",
)
BOUND_WORDS = (
    "至少", "最多", "最少", "不少于", "不超过", "不到", "超过", "少なくとも", "多くとも", "최소",
    "최대", "적어도", "많아야",
    "не менее", "не более", "не больше", "не меньше", "как минимум", "как максимум",
    "щонайменше", "τουλάχιστον", "το πολύ", "לפחות", "לכל היותר", "على الأقل", "على الأكثر",
    "कम से कम", "अधिक से अधिक", "อย่างน้อย", "อย่างมาก",
    "en az", "en fazla", "paling sedikit", "paling banyak", "setidaknya", "sedikitnya",
    "minst", "högst", "mindst", "højst", "minstens", "hoogstens", "ten minste",
    "co najmniej", "najwyżej", "conajmniej", "almeno", "al massimo", "al minimo",
    "pelo menos", "no máximo", "no mínimo", "ít nhất", "nhiều nhất", "tối đa", "tối thiểu",
    "vähintään", "enintään", "legalább", "legfeljebb", "nejméně", "nejvýše", "alespoň",
    "cel puțin", "cel mult",
)
# "maybe" and "I guess" right before the value: a hedge, not a commitment ("The answer might be
# 53.", "I guess \\boxed{99}.", "Quizás \\boxed{424}.").
MAYBE_WORDS = (
    "maybe", "perhaps", "possibly", "probably", "likely", "presumably", "supposedly",
    "might be", "could be", "may be", "i guess", "i suppose", "my guess is", "i'd guess",
    "quiz\u00e1s", "quiz\u00e1", "tal vez", "talvez", "vielleicht", "wahrscheinlich",
    "peut-\u00eatre", "probablement", "forse", "probabilmente", "kanske", "troligen", "m\u00e5ske",
    "misschien", "waarschijnlijk", "mo\u017ce", "prawdopodobnie", "mungkin", "belki",
    "muhtemelen", "ehk\u00e4", "mo\u017en\u00e1", "tal\u00e1n", "poate", "\u03af\u03c3\u03c9\u03c2",
    "c\u00f3 l\u1ebd", "c\u00f3 th\u1ec3", "\u043c\u043e\u0436\u0435\u0442", "\u043d\u0430\u0432\u0435\u0440\u043d\u043e\u0435",
    "\u043c\u043e\u0436\u043b\u0438\u0432\u043e", "\u0631\u0628\u0645\u0627", "\u05d0\u05d5\u05dc\u05d9", "\u0936\u093e\u092f\u0926",
    "\u0e1a\u0e32\u0e07\u0e17\u0e35", "\u4e5f\u8bb8", "\u53ef\u80fd\u662f", "\u53ef\u80fd", "\u305f\u3076\u3093", "\u591a\u5206",
    "\u304a\u305d\u3089\u304f", "\uc544\ub9c8\ub3c4", "\uc544\ub9c8",
)
_NO_SPACE_SCRIPT_RE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


# A label that hedges, negates or bounds the value it introduces ("Wrong answer: 5",
# "Probably: 72", "Less than: **19**", "My guess: \boxed{4}"): closed classes of words, in
# English and the languages a policy writes. Any one of them in the label refuses. (Not
# "over", "initial", "no", "old", "when": "Apples left over: 5", "Initial amount: 20", "No. of
# apples: 5" and "Time when they meet: 5" label answers.)
_LABEL_HEDGE_RE = re.compile(
    r"(?<!\w)(?:not|never|wrong|incorrect|false|rejected|invalid|probably|maybe|perhaps|"
    r"possibly|likely|unlikely|guess\w*|unsure|uncertain|tentative|draft|preliminary|"
    r"approx\w*|estimat\w*|rough\w*|(?:less|more|fewer)\s+than|bound|at\s+(?:least|most)|"
    r"alternative\w*|another|or|if|unless|"
    # a value shown as a mistake, a bound or an example, not the answer ("Common mistake:
    # \boxed{5}", "Upper bound: 7", "Candidate: 4", h44)
    r"mistake\w*|errors?|erroneous|pitfall\w*|misconception\w*|trap|distractor\w*|decoy|typo|"
    r"candidates?|examples?|counterexamples?|bounds?|"
    r"falsch|faux|falso|fel|v\u00e4\u00e4rin|vielleicht|peut-\u00eatre|"
    r"quiz\u00e1s?|tal\s+vez|talvez|forse|kanske|mo\u017ce|mungkin|belki|mindestens|"
    r"au\s+moins|al\s+menos|almeno)(?!\w)"
    r"|\u4e5f\u8bb8|\u53ef\u80fd|\u5927\u6982|\u305f\u3076\u3093|\uc544\ub9c8",
    re.IGNORECASE,
)
# The label: up to 60 characters of its line before a colon, then only markup or a
# commitment's opening up to the value.
_AFTER_LABEL_RE = re.compile(r"(?:[ \t*_$]|\\\(|\\\[|\\(?:boxed|fbox)\{|<answer>|####)*")
# A sentence that opens with a bound or an estimate ("At least \boxed{72}.", "Below 94."):
# mid-sentence, "she needs at least 72 boxes" can answer "how many at least", so only at a
# sentence start (line start, after ". " or a colon).
_BOUND_OPENING_RE = re.compile(
    r"(?:\A|[.!?:]\s|\n)[ \t*_>#-]*(?:at\s+least|at\s+most|up\s+to|over|under|above|below|"
    r"upwards\s+of|in\s+excess\s+of|more\s+than|less\s+than|fewer\s+than|no\s+more\s+than|"
    r"no\s+less\s+than|hardly|barely|nearly|almost|not\s+quite|give\s+or\s+take|"
    r"plus\s+or\s+minus|roughly|about|around|approximately|some)"
    r"(?:[ \t*_$]|\\\(|\\\[|\\(?:boxed|fbox)\{)*\Z",
    re.IGNORECASE,
)


# What may stand between the qualifier and the value: a copula, spacing, a math opener, bold.
_COPULA_TAIL_RE = re.compile(
    r"[ \t]*(?:是|为|為|は|이|는|은|:|l\u00e0|adalah|ialah)?[ \t]*(?:(?:\$\$?|\\\(|\\\[|\*\*)[ \t]*)?\Z"
)
_QUALIFIERS = APPROXIMATE_WORDS + BOUND_WORDS + MAYBE_WORDS
_SPACED = tuple(sorted({w.lower() for w in _QUALIFIERS if not _NO_SPACE_SCRIPT_RE.search(w)}))
_UNSPACED = tuple(w for w in _QUALIFIERS if _NO_SPACE_SCRIPT_RE.search(w))


def qualified_before(head: str) -> bool:
    """Whether a bound, estimate or "maybe" word stands right before the end of ``head``,
    after which only a copula, spacing, a math opener or bold may come. Read backwards from
    the end with ``str.endswith`` over the word tuples: an unanchored regex of the long
    alternation, tried at every position, cost more than the rest of a check."""
    tail = head[-_WINDOW:]
    for m in _COPULA_TAIL_RE.finditer(tail):
        core = re.sub(r"\s+", " ", tail[: m.start()]).lower()
        if core.endswith(_UNSPACED):
            return True
        if core.endswith(_SPACED):
            for word in _SPACED:
                if core.endswith(word) and not core[: len(core) - len(word)][-1:].isalnum():
                    return True
    return False


# How much of the value's line ``qualified_lead`` reads (callers may pass just this much).
LEAD_CHARS = 200


def qualified_lead(line_head: str) -> str | None:
    """Why the text of the value's line before it (``line_head``) makes the value a hedge, a
    bound or an estimate: a hedging label (``Wrong answer:``, ``Probably:``) or a sentence
    that opens with a bound (``At least``); None otherwise.

    >>> qualified_lead("Wrong answer: "), qualified_lead("Final answer: \\\\boxed{")
    ("a label that hedges or bounds the value: 'Wrong answer'", None)
    >>> qualified_lead("At least "), qualified_lead("She needs at least ")
    ("a sentence that opens with a bound: 'At least '", None)
    """
    head = line_head[-LEAD_CHARS:]
    colon = max(head.rfind(":"), head.rfind("\uff1a"))
    if colon > 0 and _AFTER_LABEL_RE.fullmatch(head, colon + 1):
        lo = max(colon - 60, head.rfind("\n", 0, colon) + 1, head.rfind(":", 0, colon) + 1,
                 head.rfind("\uff1a", 0, colon) + 1)
        label = head[lo:colon]
        if _LABEL_HEDGE_RE.search(label):
            return f"a label that hedges or bounds the value: {label.strip()!r}"
    opening = _BOUND_OPENING_RE.search(head, max(0, len(head) - _WINDOW))
    if opening is not None:
        return f"a sentence that opens with a bound: {opening.group(0).lstrip('.!?: ')[:40]!r}"
    return None
