r"""Answers committed in earlier paragraphs still stand (issue 30, round 17).

A commitment made in a paragraph before the final answer's is an answer offered, whatever
follows it, and must equal the gold on its own::

    $\boxed{21}$                      <- an answer offered
    He had 40-16=24 left, half is 12.
    $\boxed{12}$                      -> two answers: hedged

    **Final Answer: 21**
    Wait, I halved the wrong amount: 24/2 = 12.
    **Final Answer: 12**              -> two answers: hedged

A strict reader of either completion sees two final answers. Words that seem to revise
cannot tell them apart: round 17's first version took "wait", "actually", "recheck" and
"mistake" after an answer as its revision, and a blind attacker (h50) was paid 1,692 times by
"Checking again gives the same value, so this stands.", "Actually, that's right.", "Wait,
that's not wrong.", "The error bars do not matter here." and "没错。" between two answers. So
no word takes an answer back: revise inside a closed reasoning block
(``<think>...</think>``), which is the working and is not read here (the answer after it is
read alone, ``verifiers.math_extract``), or give one answer.

The commitments read in an earlier paragraph: boxes, ``<answer>`` tags, ``####`` lines and
"answer is" clauses (``verifiers.paragraph_commitments``); a line that names the answer in
any language; a conclusion's label (``TL;DR: 450``, ``最终答案：17``, ``Result: 8`` unless under
a ``Step`` line); an answer heading over a value or a list; a JSON member or tag of an answer
key; a table's answer row; a paragraph that is one value (``<final>1.1</final>`` as it
renders, ``#### -30``, ``\frac{11}{3}``) or only a list of values (``1. 67\n2. 77``,
``(i) 66, (ii) 660``); a one-sentence paragraph's alternatives or named value (``It's
either 10 or 9.``, ``Which means -40 is our answer.``).
"""

from __future__ import annotations

import re

from verifiers.answer_values import _clean
from verifiers.commitment_reading import _BOX_RE, _unwrap_box
from verifiers.json_answer import json_answer
from verifiers.labelled_lines import (
    _ANSWER_LINE_RE,
    _ANSWER_NOUN,
    _BOUND_GAP_RE,
    _CANDIDATES_RE,
    _LONE_VALUE_LINE_RE,
    READ_BACK_CHARS,
)
from verifiers.paragraph_commitments import _LABEL_HINTS, MAX_COMMITMENTS, _paragraph_values
from verifiers.spelled_numbers import spelled_value
from verifiers.value_shapes import (
    _ANSWER_HEADING_ALONE_RE,
    _CURRENCY_CODE_RE,
    _NUMBER_WORDS_AFTER_RE,
    _PART_MARK_RE,
    _PART_WORD_RE,
    _VALUE,
    _answer_column,
    _any_form,
    _either_values,
    _listed_values,
    _lone_math,
    _marked_final_values,
    _one_line_values,
    _roman_alone,
    _unwrapped,
)
from verifiers.word_hints import NOUN_CORES, folded, holds_any

__all__ = ["shaped_before", "standing_answers"]

# The other shapes that commit to a value in an earlier paragraph (the final paragraph reads
# them by its own rules): a line that names the answer in any language and ends with one value
# ("Cevap: 24", "**Final Answer: 21**"), a conclusion's label ("TL;DR: 450", "最终答案：17"), an
# answer heading over a value alone ("## Answer\n20"), a JSON member or a tag of an answer key
# ('{"answer": 13}', "<final>1.1</final>"), and a table's answer row ("| final answer | -72 |").
# (the values they offer are read by ``verifiers.value_shapes``)
_CONCLUSION_LINE_RE = re.compile(
    r"^[^\w\n]*(?:tl;?dr|final(?:[ \t]+\w+)?|result|summary|in[ \t]+short|short[ \t]+answer|bottom[ \t]+line|conclusion|"
    r"\u6700\u7ec8\w{0,3}|\u6700\u7d42\w{0,3}|\u7ed3\u8bba|\u7d50\u8ad6|\u0438\u0442\u043e\u0433\w*|endergebnis|"
    r"k\u1ebft[ \t]+qu\u1ea3|r\u00e9sultat[ \t]+final|resultado[ \t]+final)"
    rf"[^\n\d]{{0,20}}?[:=\uff1a\u2192][^\w\n]*?(?P<v>{_VALUE})(?![\d.,]\d)(?P<rest>[^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)
_CONCLUSION_MATH_RE = re.compile(
    r"^[^\w\n]*(?:tl;?dr|final(?:[ \t]+\w+)?|result|summary|in[ \t]+short|short[ \t]+answer|bottom[ \t]+line|conclusion|"
    r"\u6700\u7ec8\w{0,3}|\u6700\u7d42\w{0,3}|\u7ed3\u8bba|\u7d50\u8ad6|\u0438\u0442\u043e\u0433\w*|endergebnis|"
    r"k\u1ebft[ \t]+qu\u1ea3|r\u00e9sultat[ \t]+final|resultado[ \t]+final)"
    r"[^\n\d\\$]{0,20}?[:=\uff1a\u2192][ \t*_]*(?P<m>[$\\][^\n]{0,80})$",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER_HEADING_RE = re.compile(
    rf"^[ \t#*_>]*(?:final[ \t]+)?{_ANSWER_NOUN}[ \t*_:\uff1a]*\n(?P<line>[^\n]{{1,90}})$",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER_LIST_RE = re.compile(
    rf"^[^\w\n]*(?:\w+[ \t]+){{0,2}}{_ANSWER_NOUN}\w*[^\n\d]{{0,20}}?[:=\uff1a][ \t*_$]*\n?"
    rf"(?P<list>(?:[ \t]*(?:[-*\u2022]|\d{{1,2}}[.)])?[ \t*_$]*{_VALUE}[ \t*_$]*(?:[,;&/]|\band\b|\bor\b|\n|$)[ \t]*){{2,}})",
    re.IGNORECASE | re.MULTILINE,
)
_LIST_VALUE_RE = re.compile(rf"(?:^|(?<=[,;&/\n])|\band\b|\bor\b)[ \t]*(?:[-*\u2022][ \t]|\d{{1,2}}[.)][ \t])?[ \t*_$]*(?P<v>{_VALUE})")
# What may end an answer noun: a suffix ("Jawabannya", "Svaret") or a particle or copula that
# Chinese, Japanese and Korean write without a space ("答案是", "答えは", "답은").
_NOUN_ENDING = r"(?:nya|et|en|[\u662f\u4e3a\u70ba\u306f\u304c\uc740\ub294\uc774\uac00])?"
# An answer's label over an expression, read for countdown ("Cevap: 3-22", "1. Final: 23*6").
_ANSWER_EXPRESSION_RE = re.compile(
    rf"(?:{_ANSWER_NOUN}{_NOUN_ENDING}|final)[ \t*_]*[:\uff1a][ \t*_$]*(?P<e>[\d(][\d \t+\-*/\u00d7\u00f7().=]{{0,80}})",
    re.IGNORECASE)
# An answer noun of any language and, a few characters on, a value ("الإجابة هي 2402 units.",
# "La risposta è 352", "La réponse est \\frac{1}{8}."): words between that bound it do not.
_NOUN_VALUE_RE = re.compile(
    rf"{_ANSWER_NOUN}{_NOUN_ENDING}(?![^\W\d_])(?P<gap>[^\n\d\\$.!?,;\u2212-]{{0,12}}?)(?P<v>{_VALUE}|\$[^$\n]{{1,60}}\$|"
    r"[-\u2212]?\\[dt]?frac\{[^{}\n]{1,20}\}\{[^{}\n]{1,20}\}|[-\u2212]?\\sqrt\{[^{}\n]{1,20}\})"
    # (the value ends its clause, a unit word or two after it at most: "answer was 600*2" is
    # an operand, "answer is $3 \cdot 4$" a product)
    r"(?=[ \t*_$]*(?:$|\n|[.!?;,\u3002](?:\s|$))|[ \t]+[A-Z]|(?:[ \t]+[^\W\d_]+){1,2}[ \t*_$]*(?:$|\n|[.!?;,\u3002]))",
    re.IGNORECASE,
)
# A label that commits (an answer noun of any language, a conclusion's word) and what follows
# it on its line up to a sentence end: read as a value of any form (a number with up to two
# words after it, a number in words, LaTeX without prose): "Jawabannya adalah eight.",
# "TL;DR: sixteen", "Conclusion: \\sqrt{51}", "_Summary: 298 units_".
_NAMED_ANY_RE = re.compile(
    rf"(?:{_ANSWER_NOUN}{_NOUN_ENDING}(?![^\W\d_])|tl;?dr|summary|conclusion|final[ \t]+(?:answer|result|value)|"
    r"final(?=[ \t*_]*[:\uff1a])|result(?=[ \t*_]*[:\uff1a])|\u7b54(?=[ \t]*[:\uff1a\u3011])|"
    r"\u6700\u7ec8\w{0,3}|\u6700\u7d42\w{0,3}|\u0438\u0442\u043e\u0433\w*)"
    r"(?P<after>(?:[^\n.!?\u3002\u0964]|\.(?=\d++(?!\.\.))){1,90})",  # (a decimal point ends no sentence; "33.333..." is read as before)
    re.IGNORECASE,
)
_COPULAS = frozenset(("is", "was", "be", "es", "est", "\u00e9", "\u00e8", "ist", "\u00e4r", "er", "adalah", "ialah", "l\u00e0",
                     "je", "jest", "\u0435", "\u044d\u0442\u043e", "on", "olan", "ir", "yra", "hai", "\u0939\u0948",
                     "\u0647\u064a", "\u0647\u0648"))  # (Arabic "hiya", "huwa")
_PARTICLES = "\u662f\u4e3a\u70ba\u306f\u304c\uc740\ub294\uc774\uac00"
_SEPARATOR_RE = re.compile(r"[ \t*_]*[:=\uff1a\u3011\u27e9\u00bb\u300d\u300f]")  # (or a bracket closing the label: "\u27e8answer\u27e9 V")
_GAP_WORDS_RE = re.compile(r"[ \t]*(?:[^\W\d_]+[ \t]*)*")  # (words of a copula: "adalah", "\u00e4r")
_LEAD_SPLIT_RE = re.compile(r"^(?:[ \t:=\uff1a\u2192*_\u27e9\u00bb\u300d\u300f\u3011)\]]|[-\u2013\u2014](?=[ \t]))+|[ \t]+")  # ("Answer \u2014 1")
_KEYED_VALUE_RE = re.compile(
    r"\"(?:final[ _-]?)?(?:answer|result)\"[ \t]*:[ \t]*\"?(?P<v>[^\"\n,}]{1,80})"
    r"|<(?P<tag>[A-Za-z_]*(?:answer|final|result|solution)[A-Za-z_]*)>\s*(?P<t>[^<\n]{1,80}?)\s*</(?P=tag)>"
    rf"|^[ \t]*\|[ \t*_]*(?:(?:final[ \t]+)?{_ANSWER_NOUN}|final|result)[ \t*_:]*\|(?P<r>[^|\n]{{1,80}})\|[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
# (bold's "**" closing the value is no product: "**TL;DR: 7**")
_OPERAND_RE = re.compile(r"[ \t$]*(?:\*\*|__)?[ \t$]*(?:[-+/\u00d7\u00f7^=<>(]|\*[ \t]*[\d(])")
_STEP_LINE_RE = re.compile(r"^[^\w\n]*(?:step|case|part|stage|phase)[ \t]*\d", re.IGNORECASE | re.MULTILINE)
# A fence line of a code block (its language name too): the block's lines are read as lines.
_FENCE_LINE_RE = re.compile(r"^[ \t]*(?:```|~~~)[\w+-]*[ \t]*(?:\n|\Z)", re.MULTILINE)
# Substrings one of which every commitment holds, in ``folded`` text: a paragraph without one
# is not read.
_HINTS = ("\\boxed", "\\fbox", "<answer>", "####", *(h.lower() for h in _LABEL_HINTS), *NOUN_CORES,
          "tl;dr", "tldr", "final", "summary", "in short", "bottom line", "conclusion", "result", "solution",
          "\u6700\u7ec8", "\u6700\u7d42", "\u7ed3\u8bba", "\u7d50\u8ad6", "\u0438\u0442\u043e\u0433", "ergebnis", "k\u1ebft qu\u1ea3",
          "\u7b54")
# English number words, one of which a paragraph that is a number in words holds ("eighteen").
_NUMBER_WORD = (r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:thir|fif|eigh)teen|"
                r"(?:four|six|seven|nine)teen|(?:twen|thir|for|fif|six|seven|eigh|nine)ty|hundred|thousand|million)")
# A paragraph that may commit holds a hint, a digit or a number word (in ``folded`` text, one C scan).
# (and a line that is a Roman numeral alone: "XX")
_CANDIDATE_RE = re.compile("|".join(map(re.escape, _HINTS)) + r"|\d|" + _NUMBER_WORD +
                           r"|(?<![a-z])[ivxlcdm]{1,12}[ \t*_.!\u2713\u2714]*(?![^\n])")  # (a line that ends in a Roman numeral: "Hmm, maybe XIII.")
# Paragraphs that may commit, read back at most: a longer run of them is a wall, not a solution.
_MAX_PARAGRAPHS = 2_000
# How far back before the final paragraph earlier paragraphs are read (a tenth of a megabyte:
# more than any answer after a closed reasoning block holds).
_WINDOW = 100_000


# A line of code marked as the answer by its comment ("print(6-1)  # answer", "x = 3*7  # final").
_CODE_ANSWER_RE = re.compile(
    r"^[ \t]*(?:print[ \t]*\((?P<e>[^\n#]{1,80})\)|(?:\w+[ \t]*=[ \t]*)?(?P<f>[^\n#]{1,80}?))[ \t]*"
    r"#[ \t]*(?:final(?:[ \t]+answer)?|answer|result)\b[^\n]*$", re.IGNORECASE | re.MULTILINE)


# A question and its answer in the "Q:" / "A:" format: the "A" names the answer (alone it is a
# variable's or an option's label: "A: 3").
_QA_ANSWER_RE = re.compile(r"^[ \t*_>]*Q[ \t*_]*[:.][^\n]*\n[ \t*_>]*A[ \t*_]*:[ \t*_]*(?P<r>[^\n]{1,90})", re.MULTILINE)


def _qa_answers(paragraph: str) -> list[str]:
    """The values of the "A:" lines that answer a "Q:" line (``_QA_ANSWER_RE``)."""
    if "Q" not in paragraph:
        return []
    # (only a value alone: "A: She needs 12 bags because 16 x .75 = 12" opens the working, as the
    # few-shot "Q: ... A: ..." format does)
    return [v for m in _QA_ANSWER_RE.finditer(paragraph)
            if len(m.group("r").split()) <= 3 and "=" not in m.group("r")
            and (v := _any_form(m.group("r"), word=False)) is not None]


def _other_commitments(paragraph: str, *, earlier: bool = True) -> list[str]:
    """The values of the shapes above in one earlier paragraph; with ``earlier=False`` (the
    final paragraph, whose answer lines and clauses its own rules read) the conclusion labels,
    JSON members, tags and table rows only."""
    # (an operator right after the value makes it an operand: "Final step: 24/2 = 12"; what
    # follows it otherwise runs the next sentence on: "TL;DR: 2901 13 weeks have ...")
    # ("Result: 24" under "Step 1" is the step's result, not an answer)
    steps = _STEP_LINE_RE.search(paragraph) is not None
    values = [m.group("m") for m in _CONCLUSION_MATH_RE.finditer(paragraph) if _lone_math(m.group("m"))]
    values += [m.group("v") for m in _CONCLUSION_LINE_RE.finditer(paragraph)
              if not _OPERAND_RE.match(m.group("rest")) and not (steps and m.group(0).lstrip("*_# \t>-").lower().startswith("result"))]
    for m in _KEYED_VALUE_RE.finditer(paragraph):  # (a table's cell holds a value of any form: "| Answer | 7\\pi |")
        value = m.group("v") or m.group("t") or _any_form(m.group("r"))
        if value is not None:
            values.append(value)
    if not earlier:
        return [_clean(v.strip('"')) for v in values]
    values += [v for m in _ANSWER_HEADING_RE.finditer(paragraph) if (v := _any_form(m.group("line"))) is not None]
    for m in _ANSWER_LIST_RE.finditer(paragraph):  # "Answers: 16, 18", "answer:\n  - 500\n  - 501"
        values += [item.group("v") for item in _LIST_VALUE_RE.finditer(m.group("list").strip())]
    values += [m.group("value") for m in _ANSWER_LINE_RE.finditer(paragraph) if not _BOUND_GAP_RE.search(m.group("gap")) and not _PART_WORD_RE.search(m.group("gap"))]
    values += [m.group("v").strip("$") for m in _NOUN_VALUE_RE.finditer(paragraph)
               if not _BOUND_GAP_RE.search(m.group("gap")) and not _PART_WORD_RE.search(m.group("gap")) and (m.group("v")[:1].isdigit() or _lone_math(m.group("v")))]
    for m in _NAMED_ANY_RE.finditer(paragraph):
        if steps and m.group(0)[:6].lower() == "result":
            continue  # ("Result: 24" under "Step 1" is the step's)
        # the value after the label, its colon, and up to two words of copula ("adalah", "is")
        words = _LEAD_SPLIT_RE.sub(" ", m.group("after")).split(" ")
        # (a word alone is a value after a colon, a copula or a glued particle: "R\u00e9ponse : even",
        # "\u0110\u00e1p \u00e1n l\u00e0 ellipse", "\u7b54\u3048\u306f ellipse"; "\u0627\u0644\u062c\u0648\u0627\u0628 voil\u00e0" is prose)
        separated = _SEPARATOR_RE.match(m.group("after")) is not None or m.group(0)[: m.start("after") - m.start()][-1:] in _PARTICLES
        value = None
        for wide in (False, True):  # (a number after the copula before math that holds it)
            for k in range(3):
                gap, rest = " ".join(words[:k]), " ".join(words[k:])
                if len(gap) > 12 or _BOUND_GAP_RE.search(gap) or _PART_WORD_RE.search(gap) or (
                        wide and not _GAP_WORDS_RE.fullmatch(gap)):  # ("Answer Step 1." names a step)
                    break
                value = _any_form(rest, wide=wide, word=separated or gap.strip().lower() in _COPULAS)
                if value is not None:
                    values.append(value)
                    break
            if value is not None:
                break
    return [_clean(v.strip('"')) for v in values]


_SHORT_PARAGRAPH = 200
_NAMED_VALUE_RE = re.compile(
    rf"(?P<v>{_VALUE})[ \t*_$]*(?:is|was|would\s+be)[ \t]+(?:our|the|my)[ \t]+(?:final[ \t]+)?answer"
    rf"|(?:final|required|resulting)[ \t]+(?:value|amount|total|result|number)[ \t]+(?:is|of|=|:)[ \t*_$]*(?P<w>{_VALUE})"
    r"(?![\d.,]\d)(?![ \t$*_]*[-+*/\u00d7\u00f7^=(])",  # (not an operand: "a final total of $40 + $10")
    re.IGNORECASE)
# A one-sentence paragraph that offers a value as a guess or a claim.
_GUESS_RE = re.compile(
    r"[*_ \t>]*(?:(?:hmm+|well|so|ok(?:ay)?|wait)[,.!]?[ \t]+)?(?:maybe|perhaps|probably|possibly|likely|actually|i[ \t]+think|"
    r"i[ \t]+guess|it(?:[ \t]+is|['\u2019]s)|that(?:[ \t]+is|['\u2019]s))[,:]?[ \t]+(?:it(?:[ \t]+is|['\u2019]s)[ \t]+)?"
    r"(?P<v>[^\n]{1,60}?)[ \t*_]*[.!]?[ \t*_]*", re.IGNORECASE)
# A paragraph that is one short concluding sentence with one value ("Therefore 63.", "So, 9").
_SHORT_CONCLUSION_RE = re.compile(
    r"[*_ \t>]*(?:therefore|thus|hence|so|finally|total|in[ \t]+total|altogether|overall)[,:]?[ \t*_$]*"
    rf"(?P<v>{_VALUE})[ \t*_$]*[.!]?", re.IGNORECASE)
def _unboxed(value: str) -> str:
    """A clause's value that is a box ("the answer is $\\boxed{5}$.") as the box's content."""
    if not _BOX_RE.match(value):
        return value
    content, why = _unwrap_box(value)
    return value if why is not None else _clean(content)


def shaped_before(text: str, start: int) -> list[str]:
    """The values of the shapes above (a JSON member, a conclusion's label, an answer line) in
    the final answer's paragraph before ``start``: '{"answer": 13} ...\n#### 3' offers 13."""
    para_start = text.rfind("\n\n", 0, start) + 1
    head = text[max(para_start, start - READ_BACK_CHARS) : start]
    return (_other_commitments(head, earlier=False) if holds_any(folded(head), _HINTS) else []) + _qa_answers(head)


def _read_paragraph(paragraph: str, labelled: bool) -> list[str]:
    """The values one earlier paragraph commits to (module doc); without ``labelled``, only its
    boxes, tags, ``####`` lines, answer clauses and JSON answers."""
    values: list[str] = []
    if not labelled:
        values += _paragraph_values(paragraph, len(paragraph.rstrip()), labelled_lines=False, look_back=False, final=False)
        # an answer heading over its line ("# \u7b54\u6848\n6+2") or an answer's label ("Cevap: 3-22",
        # "Final: 23*6") is no target's label: it commits
        values += [m.group("line").strip(" \t*_$") for m in _ANSWER_HEADING_RE.finditer(paragraph)]
        values += [m.group("e").strip(" \t*_$.") for m in _ANSWER_EXPRESSION_RE.finditer(paragraph)]
        # a line of code marked as the answer ("print(6-1)  # answer"), a table's answer column
        values += [(m.group("e") or m.group("f")).strip() for m in _CODE_ANSWER_RE.finditer(paragraph)]
        if "|" in paragraph and "\n" in paragraph.strip():
            values += _answer_column(paragraph.strip(), lambda cell: cell.strip(" \t*_$`") or None)
            values += [m.group("r").strip(" \t*_$`") for m in _KEYED_VALUE_RE.finditer(paragraph) if m.group("r")]
        return values
    shown = _FENCE_LINE_RE.sub("", paragraph).strip() if "```" in paragraph or "~~~" in paragraph else paragraph.strip()
    values += _qa_answers(shown)  # "Q: How many?\nA: 109."
    lone = _LONE_VALUE_LINE_RE.fullmatch(shown)
    if lone is not None:  # "<final>1.1</final>" as it renders: a value alone in its paragraph
        sign = shown[lone.start("value") - 1 : lone.start("value")] if lone.start("value") else ""
        values.append((sign if sign in ("-", "+", "\u2212") else "") + _clean(lone.group("value")))  # ("#### -30")
    elif (math := _lone_math(shown)) is not None:  # "\\frac{11}{3}" alone in its paragraph
        values.append(math)
    elif "\n" not in shown and len(shown) <= 24 and (roman := _roman_alone(shown)) is not None:
        values.append(roman)  # "XX", "IV." alone in its paragraph (before a part's mark: "IV." reads both)
    elif "\n" in shown or _PART_MARK_RE.match(shown):
        values += _listed_values(shown)
    elif (amount := _NUMBER_WORDS_AFTER_RE.fullmatch(shown.strip(" \t*_>").rstrip(".!"))) is not None:
        values.append(amount.group("v"))  # "161 dollars" alone in its paragraph
    elif len(shown) <= 80 and (word := spelled_value(shown.strip(" \t*_>.!"))) is not None:
        values.append(word)  # "eighteen" alone in its paragraph
    elif (said := _SHORT_CONCLUSION_RE.fullmatch(shown)) is not None:  # "Therefore 63."
        values.append(said.group("v"))
    elif len(shown) <= _SHORT_PARAGRAPH and "\n" not in shown:
        # a paragraph of one short sentence: its alternatives ("It's either 10 or 9.") and its
        # value named the answer ("Which means -40 is our answer.", "the required value is -15")
        for m in _CANDIDATES_RE.finditer(shown):
            values += [v for v in m.group("a", "b", "c", "d") if v is not None]
        values += [] if values else _either_values(shown)  # (of any form: "either \\frac{1}{3} or \\frac{1}{2}")
        values += [m.group("v") or m.group("w") for m in _NAMED_VALUE_RE.finditer(shown)]
        guess = _GUESS_RE.fullmatch(shown)  # "Hmm, maybe 651.", "Actually, it is 12.": a value offered
        if guess is not None and (value := _any_form(guess.group("v"), word=False)) is not None:
            values.append(value)
    if len(shown) <= _SHORT_PARAGRAPH and "\n" not in shown and not values:
        values += _one_line_values(shown)
    elif "|" in shown and "\n" in shown:
        values += _answer_column(shown)
    if "\n" in shown or len(shown) > _SHORT_PARAGRAPH or not values:
        values += _marked_final_values(shown) if "final" in shown.lower() else []
    if holds_any(folded(paragraph), _HINTS):
        values += _paragraph_values(paragraph, len(paragraph.rstrip()), labelled_lines=False, look_back=False, final=False)
        values += _other_commitments(paragraph)
        if shown.endswith(("}", "```")):  # '```json\n{"answer": 21}\n```'
            js = json_answer(shown)
            if js is not None and (js.value is not None or js.problem is not None):
                values.append(js.value or "\\ldots")  # (several answers in one object: no one value)
    return values


def standing_answers(text: str, start: int, *, labelled: bool = True) -> list[str]:
    r"""The values of the commitments in the paragraphs before the one that holds ``start``
    (the final answer's), latest first; ``\ldots`` at the end when more stand than one answer
    can be, or than can be read (paragraphs are
    read back ``_WINDOW`` characters, each paragraph's last ``READ_BACK_CHARS``; a hint of a
    commitment before that refuses). Without ``labelled`` (countdown, whose ``Result: 4``
    names the target) only boxes, tags, ``####`` lines and answer clauses commit.

    >>> standing_answers("\\boxed{21}\n\nSo 24/2 = 12.\n\n\\boxed{12}", 30)
    ['21']
    >>> standing_answers("\\boxed{21}\n\nWait, 24/2 = 12.\n\n\\boxed{12}", 30)  # no word takes it back
    ['21']
    >>> standing_answers("TL;DR: 450\n\nRobert has 25 + 20 = 45 balls.\nANSWER: 45", 45)
    ['450']
    """
    para_start = text.rfind("\n\n", 0, start) + 1
    if para_start <= 0:
        return []
    window = max(0, para_start - _WINDOW)
    low = folded(text, window, start)
    if len(low) != start - window:  # (a character whose lowercase is longer: read it as is)
        low = text[window:start].lower()
    if window > 0 and holds_any(folded(text, 0, window), _HINTS):
        return ["\\ldots"]  # a commitment may stand further back than is read
    lo = window
    # the paragraphs of text[lo:para_start] that may commit (a hint or a digit), found in C
    spans: list[tuple[int, int]] = []
    hit = _CANDIDATE_RE.search(low, lo - window, para_start - window)
    while hit is not None:
        at = window + hit.start()
        cut = text.rfind("\n\n", lo, at)
        begin = lo if cut < 0 else cut + 2
        end = text.find("\n\n", at, para_start)
        end = para_start if end < 0 else end
        spans.append((begin, end))
        if len(spans) > _MAX_PARAGRAPHS:
            return ["\\ldots"]  # more paragraphs that may commit than a solution holds
        hit = _CANDIDATE_RE.search(low, end - window, para_start - window) if end < para_start else None
    values: list[str] = []
    for begin, end in reversed(spans):
        first = end + len(text[end:para_start]) - len(text[end:para_start].lstrip())
        if first < para_start and _ANSWER_HEADING_ALONE_RE.fullmatch(text, begin, end):
            # "## Answer\n\n3, 5, 7": the first line under an answer heading is its value
            line_end = text.find("\n", first, para_start)
            value = _any_form(text[first : para_start if line_end < 0 else line_end])
            if value is not None:
                values = list(dict.fromkeys([*values, value]))
        if end - begin > READ_BACK_CHARS:  # a paragraph longer than a solution's: its end is read
            if holds_any(folded(text, begin, end - READ_BACK_CHARS), _HINTS):
                return [*values, "\\ldots"]  # and a commitment may stand before that
            begin = end - READ_BACK_CHARS
        # (emphasis around a sentence ends it: "_In summary, the answer is 55^\\circ._")
        # (and a bracket closing what opened before the label: "(Answer: 1 \u2705)")
        read = (_clean(_CURRENCY_CODE_RE.sub("", _unwrapped(_unboxed(v).rstrip(" _*.")))) or v
                for v in _read_paragraph(text[begin:end], labelled))
        values = list(dict.fromkeys([*values, *read]))
        if len(values) > MAX_COMMITMENTS:
            return [*values, "\\ldots"]  # a wall of commitments: more answers than one can be
    return values
