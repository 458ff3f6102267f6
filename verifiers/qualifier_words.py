"""Words that make the value after them a bound or an estimate, in the languages a policy
writes: ``答案大约是\\boxed{645}``, ``Svaret är ungefär 531.``, ``Cevap en az 930.`` state no
value. English, German, Spanish and French forms are in the readers' own patterns; these are
the others, kept apart so the list can grow without touching the grammar.

A qualifier counts only right before the value (after an optional copula of a script without
word spaces and an optional math opener), so ``答案最大值是`` ("the maximum value is") and a
question's "at least" earlier in its sentence are left alone.

>>> bool(QUALIFIED_BEFORE_RE.search("答案大约是"))
True
>>> bool(QUALIFIED_BEFORE_RE.search("Svaret är ungefär "))
True
>>> bool(QUALIFIED_BEFORE_RE.search("Svaret är "))
False
"""

from __future__ import annotations

import re

__all__ = ["APPROXIMATE_WORDS", "BOUND_WORDS", "QUALIFIED_BEFORE_RE"]

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
_NO_SPACE_SCRIPT_RE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _alternation(words: tuple[str, ...]) -> str:
    spaced = sorted((w for w in words if not _NO_SPACE_SCRIPT_RE.search(w)), key=len, reverse=True)
    unspaced = sorted((w for w in words if _NO_SPACE_SCRIPT_RE.search(w)), key=len, reverse=True)
    return (
        r"(?<!\w)(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in spaced) + r")"
        + "|(?:" + "|".join(map(re.escape, unspaced)) + ")"
    )


# the qualifier, then an optional copula (是, 为, は, 은/는, là, adalah), spacing, a math opener or
# bold, at the end of the text before the value
QUALIFIED_BEFORE_RE = re.compile(
    "(?:" + _alternation(APPROXIMATE_WORDS + BOUND_WORDS) + ")"
    r"[ \t]*(?:是|为|為|は|이|는|은|:|l\u00e0\b|adalah\b|ialah\b)?[ \t]*(?:(?:\$\$?|\\\(|\\\[|\*\*)[ \t]*)?\Z",
    re.IGNORECASE,
)
