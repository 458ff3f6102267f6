r"""The earlier commitments of the final answer's paragraph -- the ``paragraph`` rule of the
grammar in ``verifiers.math_extract`` (issue 30): boxes, ``<answer>`` tags, earlier ``####``
lines and "answer is" clauses in a closed set of languages (``_paragraph_values``), each of
which must agree with the final answer, whatever stands between them.

Round 3 (h16): they also include any ``<label>: <value>`` or ``<label> <value>`` line, whatever
the label's word or script, whose number no later arithmetic of the paragraph uses
(``verifiers.labelled_lines``), and multiple-choice letters; a clause runs on into the final
answer only when the math span holding it opens after the clause (``_open_math_at``,
``_runs_on``: an empty ``${}$`` runs on into nothing). Later rounds added values on display
before a revision said in words (``_revised_values``) and the commitments of the paragraph
before the final one when both are bare answers (``_bare_paragraph_before``)."""

from __future__ import annotations

import re

from verifiers.answer_text import visible_text
from verifiers.answer_values import _TAIL_VALUE_RE, _clean
from verifiers.commitment_reading import (
    _ANSWER_TAG_RE,
    _BOX_RE,
    MAX_BOX_CHARS,
    _box_at,
    _opens_clause,
    _read_clause,
    _unwrap_box,
)
from verifiers.json_answer import json_answer
from verifiers.labelled_forms import LABELLED_WORDS_RE, any_form_value, line_before_value
from verifiers.labelled_lines import (
    _ANSWER_LINE_RE,
    _HEADING_WORD_RE,
    _LONE_VALUE_LINE_RE,
    _NON_LATIN_LETTER,
    READ_BACK_CHARS,
    labelled_values,
    value_first_values,
)
from verifiers.numeral_forms import ROMAN_RE, roman_value
from verifiers.spelled_numbers import spelled_value
from verifiers.unread_slots import unread_slot_words
from verifiers.word_hints import folded, holds_any

MAX_COMMITMENTS = 8  # more different answers than this in the final paragraph: hedged
_EARLIER_HASHES_RE = re.compile(r"####[ \t]*([^\n]{1,400})")


# Earlier commitments of a paragraph are "answer" clauses in English and other languages
# ("Ответ: 8", "答案是6。", "La respuesta es 4."): the word for the answer, then "is", ":" or
# "=", then a value, matched as the normalised text spells them (look-alikes read as Latin).
# Not "Total:" or "Result:": GSM8K's own solutions label steps so ("Total:x+2x+4x=700" before
# "#### 400").
_LABEL_RE = re.compile(
    r"\b(?:final\s+answer|answer)\s*(?:(?:is|would\s+be|will\s+be|"
    r"should\s+be)\b\s*:?|:|=)|"
    r"(?:\b(?:la\s+)?respuesta(?:\s+final)?\s*(?:es\b|:)|\b(?:la\s+)?r[ée]ponse(?:\s+finale)?\s*"
    r"(?:est\b|:)|\b(?:die\s+)?antwort\s*(?:ist\b|:)|\b(?:a\s+)?resposta\s*(?:[ée]\b|:)|"
    rf"\b{visible_text('ответ')}\s*(?:[:=]|{visible_text('это')}\b)|答案\s*(?:是|为|為|:)|答え\s*(?:は|:)|정답\s*(?:은|:)|"
    r"الجواب\s*(?:هو|:)|उत्तर\s*(?:है|:))",
    re.IGNORECASE,
)


# A copula or particle glued to the value in a script without Latin variables ("5입니다").
_COPULA_AFTER_RE = re.compile(rf"(?<=\d)[ \t]*{_NON_LATIN_LETTER}+[\W_]*$")
_LABEL_HINTS = ("nswer", "NSWER", "espuesta", "ESPUESTA", "ponse", "PONSE", "ntwort", "NTWORT",
                "esposta", "ESPOSTA", visible_text("тв"), visible_text("ТВ"), "答", "정답",
                "الجواب", "उत्तर")


_MATH_TOKEN_RE = re.compile(r"\\\$|\$\$|\$|\\[()\[\]]")
_MATH_CLOSERS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}


def _open_math_at(text: str, lo: int, hi: int) -> int | None:
    """Where the math span still open at ``hi`` opened (scanning from ``lo``), or None. One
    pass over the delimiters: an empty span (``${}$``, ``$\\,{}$``) closes before ``hi``
    and holds nothing open, whatever its parity looks like with one delimiter cut off."""
    opening: tuple[str, int] | None = None
    for m in _MATH_TOKEN_RE.finditer(text, lo, hi):
        token = m.group()
        if token == "\\$":  # a dollar sign, no delimiter
            continue
        if opening is None:
            opening = (token, m.start()) if token in _MATH_CLOSERS else None
        elif token == _MATH_CLOSERS[opening[0]]:
            opening = None
    return None if opening is None else opening[1]


# Between a clause and the math that holds the final answer: no sentence end, no value.
_CLAUSE_BREAK_RE = re.compile(r"[.!?\u3002](?=\s|$)|\n\s*\n")


def _runs_on(text: str, clause_end: int, math_open: int | None) -> bool:
    """Whether the clause ending at ``clause_end`` leads into the math span opened at
    ``math_open`` that holds the final answer ("the answer is $3! \\times 5! =
    \\boxed{720}$"): that span opens after the clause, and nothing between them ends a
    sentence or offers a value ("The answer is 7. $x = \\boxed{5}$" offers 7)."""
    if math_open is None or math_open < clause_end:
        return False
    between = text[clause_end:math_open]
    return _CLAUSE_BREAK_RE.search(between) is None and _TAIL_VALUE_RE.search(between) is None


# A multiple-choice letter is a value too ("Answer: D\nAnswer: C" offers two choices).
_CHOICE_RE = re.compile(r"\(?[A-J]\)?\.?|\([a-j]\)\.?|\*\*\(?[A-J]\)?\*\*")
# A choice letter that opens a "####" line before a sentence or a stop ("A The answer is B.",
# "(A). Then"); not "A total of 5".
_LEADING_CHOICE_RE = re.compile(
    r"\(?([A-J])\)?(?=[ \t]*(?:[.,;:!]|$)|[ \t]+(?i:the|is|answer|option|choice)\b)")


# The words that open the next clause, cut off the end of a clause read up to it.
_NEXT_LEAD_RE = re.compile(
    r"[\s,;.]+(?:(?:the|our|my|so|thus|hence|therefore|final|and|then)[\s,]*)+\Z", re.IGNORECASE
)


# A value that opens a clause and ends it, or runs on into the next sentence ("534 The ...";
# not "15 gallons * 8 pints = 120 pints", whose value is read below).
_LEADING_VALUE_RE = re.compile(
    r"[ \t*_$]*(?P<v>[-+\u2212]?\$?\d++(?:,\d{3})*+(?:\.\d+)?+%?)(?=[ \t*_$]*(?:$|\n|[.!?;,](?:\s|$)|[ \t]+[A-Z]))")
_CALCULATOR_NOTE_RE = re.compile(r"<<[^<>\n]{0,200}>>")


# "The answer is therefore 3": an adverb before a clause's value is no part of it.
_ADVERB_RE = re.compile(r"^(?:(?:therefore|thus|then|hence|so|indeed|clearly|just|simply)\b[\s,]*)+",
                        re.IGNORECASE)


def _paragraph_values(
    text: str, start: int, *, labelled_lines: bool = True, look_back: bool = True, final: bool = True
) -> tuple[str, ...]:
    """The values of the commitments (outermost boxes, ``<answer>`` tags) that stand before
    ``start`` in the final answer's paragraph, in order: all must agree with the final one,
    whatever stands between them (``\\boxed{6} \\quad \\boxed{5}``). One pass over the
    paragraph."""
    para_start = text.rfind("\n\n", 0, start) + 1
    values: list[str] = []
    at = para_start
    for count, m in enumerate(_BOX_RE.finditer(text, para_start, start)):
        if count > 4 * MAX_COMMITMENTS:
            return (*values, "\\ldots")  # a wall of boxes: more answers than can be one
        if m.start() < at:
            continue  # inside the box read before it
        box = _box_at(text, m.start())
        if not isinstance(box, tuple) or box[2] > start:
            continue
        content, _ = _unwrap_box(text[box[0] : box[1]])
        values.append(_clean(content))
        at = box[2]
    if "<answer>" in text[para_start:start]:
        values += [_clean(m.group(1)) for m in _ANSWER_TAG_RE.finditer(text, para_start, start)]
    head = text[para_start:start]
    # Earlier "####" lines of the paragraph are commitments too ("#### 31\nThe answer is 30").
    if "####" in head:
        lines = dict.fromkeys(_EARLIER_HASHES_RE.findall(head))
        if len(lines) > 4 * MAX_COMMITMENTS:
            return (*values, "\\ldots")  # more different lines than one answer can be
        for line in lines:  # each different line read once ("#### 5" a million times is one)
            value = _clean(line)
            if _TAIL_VALUE_RE.search(value) or _CHOICE_RE.fullmatch(value):
                values.append(value)
            elif (letter := _LEADING_CHOICE_RE.match(value)) is not None:
                values.append(letter.group(1))  # "#### A The answer is B.": A, then B
    # Earlier "answer is" clauses whose math is closed before the final answer starts
    # ("The answer is 6. \quad \boxed{5}") commit to their result, the last side of their
    # value ("the final answer is 15 * 8 = 120 pints" commits to 120 pints). A clause that
    # runs on into the final answer ("the answer is $3! \times 5! = \boxed{720}$") is its
    # derivation, and "points/answer = 48" no clause.
    # (``final=False``: no answer follows at ``start``, so no clause runs on into one; a lone
    # "$" there is a dollar sign: "[^1]: The answer is $19205.00." offers 19205.00)
    math_open = _open_math_at(text, para_start, start) if final else None
    labelled = any(hint in head for hint in _LABEL_HINTS)  # one C pass each: most hold none
    labels = []
    near = max(0, start - para_start - READ_BACK_CHARS)  # clauses are read back so far (in head)
    for count, m in enumerate(_LABEL_RE.finditer(head, near) if labelled else ()):
        if count > 2 * MAX_COMMITMENTS:
            return (*values, "\\ldots")
        labels.append(m)
    for k, m in enumerate(labels):
        # a clause ends where the next lead-in starts ("Ответ: 7 ${ }$ The final answer is")
        stop = labels[k + 1].start() if k + 1 < len(labels) else len(head)
        runs_on = para_start + stop >= (math_open or 0) and _runs_on(text, para_start + m.end(), math_open)
        if not _opens_clause(head, m) or runs_on:
            continue
        leading = _LEADING_VALUE_RE.match(head, m.end())
        if leading is not None:  # "Answer: 534 The leather seats are ...": the value it opens with
            values.append(_clean(leading.group("v")))
        clause = _read_clause(head[m.start() : min(stop, m.end() + MAX_BOX_CHARS)], m.end() - m.start())
        if clause is None:
            continue
        # (a GSM8K calculator note "<<8=8>>" is no side)
        value = _clean(_CALCULATOR_NOTE_RE.sub("", clause[0]).rsplit("=", 1)[-1])
        value = _ADVERB_RE.sub("", value)
        value = _NEXT_LEAD_RE.sub("", value)  # "Answer: B The answer is A": "B"
        value = _COPULA_AFTER_RE.sub("", value)  # "정답은 5입니다": 5
        if _TAIL_VALUE_RE.search(value) or _CHOICE_RE.fullmatch(value):
            values.append(spelled_value(value) or value)  # "The answer is six.": 6
        elif spelled_value(value) is not None:  # "The answer is vier.", "答えは\u516d。"
            values.append(spelled_value(value))  # type: ignore[arg-type]
        elif (roman := roman_token(value)) is not None:  # "The answer is VII.", "答案是 XIX。"
            values.append(roman)
    from_lines = labelled_values(text, para_start, start) if labelled_lines else []
    if from_lines is None:
        return (*values, "\\ldots")
    values += from_lines
    if look_back:
        values += _bare_paragraph_before(text, para_start, start, labelled_lines=labelled_lines)
        values += _revised_values(text, para_start, start)
        opening = value_first_values(text, para_start, start)  # "6 is correct." then final
        values += ["\\ldots"] if opening is None else opening
        values += unread_slot_words(text, para_start, start)  # "veintiuno.", "Maybe ishirini."
        if labelled_lines:
            values += filter(None, [line_before_value(text, para_start, start)])  # "Result: 50/8\n\boxed{6}"
    return tuple(v for v in dict.fromkeys(values) if v)


# A value on display: bold or math holding one number and nothing else.
_DISPLAYED_VALUE_RE = re.compile(
    r"\*\*[ \t]*([-+]?\d[\d,]*(?:\.\d+)?)[ \t]*\*\*|(?<!\$)\$[ \t]*([-+]?\d[\d,]*(?:\.\d+)?)[ \t]*\$(?!\$)"
)
# A revision said in so many words, in the languages a policy writes ("Wait, actually it's
# **84**", "Edit: $262$", "Doch nicht, 40", "Non, plutôt 40").
_SAID_REVISION_RE = re.compile(
    # at a sentence start only: "It actually has two factors of $5$" is prose, not a revision
    # (possessive runs: spacing before no revision word must cost one pass, h38)
    r"(?:^|(?<=[.!?:;])[ \t]++|(?<=\n))[ \t*_>-]*+(?:(?:oh|no|hmm+|ah)[,!.]?[ \t]+)?"
    r"\b(?:wait|actually|oops|sorry|edit|update[ds]?|erratum|correction|scratch\s+that|"
    r"just\s+kidding|doch\s+nicht|non,\s+plut\u00f4t|plut\u00f4t|en\s+realidad|"
    r"it\s+should\s+be|I\s+mean)\b"
    # right after a displayed value, a revision word of any language ("**90** Подожди, **26**",
    # "**60** 等等, **48**", "**77** no, **67**") or nothing at all ("**47** **59**.")
    r"|(?:(?<=\d\*\*)|(?<=\d\$))[ \t]*(?:(?:no|wait|nope|actually|sorry|oops|I\s+mean|\u043f\u043e\u0434\u043e\u0436\u0434\u0438|"
    r"\u043d\u0435\u0442|\u7b49\u7b49|\u7b49\u4e00\u4e0b|\u5f85\u3063\u3066|\u3044\u3084|espera|attends|warte|"
    r"aspetta|bekle|tunggu|ch\u1edd|\uc7a0\uae50)[,!.]?[ \t]+){0,2}(?=\*\*[-+]?\d|\$[-+]?\d)",
    re.IGNORECASE | re.MULTILINE,
)

# Substrings that the first branch above needs (one of its words) and what the second needs (a
# value on display right after a value): most paragraphs hold neither, and the pattern, tried
# at every position, is then not run (speed).
_REVISION_HINTS = ("wait", "actually", "oops", "sorry", "edit", "update", "erratum", "correction", "scratch",
                   "kidding", "doch", "plut", "realidad", "should", "mean")
_DIGIT_DISPLAYED_RE = re.compile(r"\d(?:\*\*|\$)")


def _revised_values(text: str, para_start: int, start: int) -> list[str]:
    """The values on display (``**92**``, ``$7$``) that stand before a revision said in words
    in the final answer's paragraph (``**92**. Wait, actually it's **84**.``): the first answer
    of a paragraph that revises itself is still offered (revise inside a reasoning block)."""
    said = None
    para_start = max(para_start, start - READ_BACK_CHARS)
    if not holds_any(folded(text, para_start, start), _REVISION_HINTS) and not _DIGIT_DISPLAYED_RE.search(
            text, max(0, para_start - 2), start):
        return []  # (no word the pattern needs, no value on display after a value: one C pass each)
    for said in _SAID_REVISION_RE.finditer(text, para_start, start):  # noqa: B007
        pass
    if said is None:
        return []
    shown = _DISPLAYED_VALUE_RE.findall(text, para_start, said.start())
    return [a or b for a, b in shown[-1:]]  # the value the revision takes back


# The earlier paragraph's last line is read back when at most this long.
_BARE_PARAGRAPH_CHARS = 300
_SENTENCE_STOP_RE = re.compile(r"[.!?\u3002](?=\s)")
# (a number in arithmetic, "2 + 4 = 6", is reasoning; a label's, "Case 1:", is not)
# (a CJK stop needs no space after it: "等等，算错了。正确答案是 ..." says a sentence first)
_REASONING_RE = re.compile(r"[.!?\u0964](?=\s)|[\u3002\uff01\uff1f]|\d\s*[-+*/=\u00d7\u00f7^]|[-+*/=\u00d7\u00f7]\s*\d")
# Words that say the final paragraph revises the one before ("Hmm, recounting, the answer is
# 6."): with them it is a correction, read alone as before (paying it gains a policy nothing:
# only the last value is read).
_REVISION_RE = re.compile(
    r"\b(?:wait|hmm+|actually|oops|sorry|correct\w*|mistake\w*|error|wrong|instead|fix\w*|"
    r"re-?(?:count|check|calculat|consider|evaluat|do|did|work|visit|vis)\w*|check\w*|"
    r"on\s+second\s+thought|scratch|let\s+me|update\w*)\b",
    re.IGNORECASE,
)


# A heading that introduces the final answer, ending its line ("**Final Answer**", "## Answer").
_TRAILING_HEADING_RE = re.compile(
    r"(?:\*\*|#{1,6}[ \t]*)?(?:the[ \t]+)?(?:final[ \t]+)?answer[ \t]*:?[ \t]*(?:\*\*)?[ \t]*:?[ \t]*\Z", re.IGNORECASE)


# A paragraph that only joins or heads what follows: a rule, a heading, a short label.
_FILLER_PARAGRAPH_RE = re.compile(
    # (a "####" line is GSM8K's answer, no heading: "#### 282\n\n#### 264" offers two)
    r"[ \t]*(?:[-*_=]{3,}|(?!####)#{1,6}[ \t]+(?![-+]?\d)[^\n]{0,40}|(?:[*_]{0,2}[A-Za-z\u00c0-\u024f]++[*_]{0,2}[ \t]*){1,3}[:.!]?[*_]{0,2})[ \t]*")


_TABLE_RULE_RE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?")
# A label of one to four words and a choice letter alone after its colon ("Final result: C").
_LABELLED_CHOICE_RE = re.compile(
    r"[^\w\n]*(?:[^\W\d_]++[ \t]*){1,4}[:\uff1a][ \t*_]*\(?([A-J])\)?[ \t*_.]*")  # (possessive runs, h47)
# One value in math: "\frac{13}{2}", "x = 13", "$\sqrt{2}$" (digits alone are labelled_values').
_MATH_VALUE_RE = re.compile(
    r"\$?[ \t]*(?:[A-Za-z][ \t]*=[ \t]*)?(?P<v>[-+]?(?:\\[dt]?frac\{\d+\}\{\d+\}|\\sqrt\{\d+\}|\d+(?:\.\d+)?))[ \t]*\$?")
def roman_token(text: str) -> str | None:
    """The value of ``text`` when it is one Roman numeral offered as a value: upper case (not
    ``I``, a word, nor ``C``, ``D``, ``M`` alone, choice letters) or, of two letters or more,
    lower case (``ⅳ``, which NFKC reads ``iv``); None otherwise."""
    token = text.strip(" \t*_$.!,;:\u3002")
    if not token or len(token) > 12 or token in ("I", "C", "D", "M"):
        return None
    if not (token.isupper() or (token.islower() and len(token) > 1)) or not ROMAN_RE.fullmatch(token.upper()):
        return None
    return str(roman_value(token.upper()))


_OPTION_RE = re.compile(r"(?i:option|choice)[ \t]+\(?([A-J])\)?")
_LIST_NUMBER_RE = re.compile(r"^[ \t>]*\d{1,2}[.)][ \t]+")
# Between an answer noun and its value, spacing or markup only: a heading's number ("Answer 2").
_NUMBERING_GAP_RE = re.compile(r"[ \t*_#]*")


def _bare_paragraph_before(text: str, para_start: int, start: int, *, labelled_lines: bool = True) -> list[str]:
    """The commitments of the paragraph before the final one, when both are bare answers:
    ``\\boxed{6}`` then ``\\boxed{5}``, ``答案是0。`` then ``答案是66。``, ``If n is even:
    \\boxed{6}`` then ``If n is odd: \\boxed{5}`` offer two answers with nothing between them.
    A later paragraph revises an earlier one only by reasoning: when the final paragraph
    says something (a sentence or arithmetic) before its commitment, or the earlier paragraph's
    last line goes on after its commitment, nothing is read back; only that last line's
    commitments are (boxes, tags, ``####`` lines, answer clauses, a fenced JSON answer, and,
    with ``labelled_lines``, a labelled value or choice letter: ``Final result: 13``, ``| Total
    | 931 |``; countdown reads none, its ``Target: 16`` names the goal)."""
    near = max(para_start, start - READ_BACK_CHARS)  # (a longer paragraph reads back: stricter)
    if _REASONING_RE.search(text, near, start) or _REVISION_RE.search(text, near, start):
        return []
    prev_end = len(text[: max(0, para_start - 1)].rstrip())  # one C pass, not a loop per space
    line_start = text.rfind("\n", 0, prev_end) + 1
    for _ in range(2):  # "\boxed{6}\n\nAlso:\n\n\boxed{5}": a filler paragraph between is none
        if not (_FILLER_PARAGRAPH_RE.fullmatch(text, line_start, prev_end)
                and text.startswith("\n", line_start - 1) and text.startswith("\n", line_start - 2)):
            break
        label = LABELLED_WORDS_RE.fullmatch(text, line_start, prev_end)
        if label is not None and any_form_value(label.group("rest") or label.group("cell")) is not None:
            break  # "### Final result: 4**3": a heading that holds a value offers it
        prev_end = len(text[: max(0, line_start - 2)].rstrip())
        line_start = text.rfind("\n", 0, prev_end) + 1
    if prev_end <= line_start or prev_end - line_start > _BARE_PARAGRAPH_CHARS:
        return []
    heading = _TRAILING_HEADING_RE.search(text, line_start, prev_end)
    if heading is not None:  # "$1$.\n**Final Answer**\n\n\boxed{5}": read what the heading follows
        prev_end = len(text[: heading.start()].rstrip(" \t"))
        if prev_end == line_start and line_start > 1 and text[line_start - 2] != "\n":
            prev_end = line_start - 1  # the heading alone on its line: the line before it
            line_start = text.rfind("\n", 0, prev_end) + 1
    if text.endswith(("}", "```"), 0, prev_end):  # '```json\n{"answer": 1}\n```' then "The answer is 11."
        js = json_answer(text[:prev_end])
        if js is not None and js.value is not None:
            return [js.value]
    if _TABLE_RULE_RE.fullmatch(text, line_start, prev_end) and line_start > 1 and text[line_start - 2] != "\n":
        prev_end = line_start - 1  # a table's rule under its header row: the header row ("| Total | 931 |")
        line_start = text.rfind("\n", 0, prev_end) + 1
    if text.startswith("```", line_start) and not text[line_start:prev_end].strip("`"):
        # a code block's closing fence: its last line is what the paragraph ends on ("answer = 17")
        prev_end = len(text[: max(0, line_start - 1)].rstrip())
        line_start = text.rfind("\n", 0, prev_end) + 1
    line = _LIST_NUMBER_RE.sub("", text[line_start:prev_end], count=1)  # "1. Answer: 6" is its item
    if heading is not None:
        said = value_first_values(line.rstrip() + "\n", 0, len(line.rstrip()) + 1)
        if said:  # "`9` fits.\n**Final Answer**", "__2__也可以。 **Final Answer**"
            return said
    if line.rstrip().endswith("</answer>") and "<answer>" not in line:
        # an answer tag over several lines ("<answer>\n101\n</answer>"): the whole tag
        opening = text.rfind("<answer>", max(0, prev_end - _BARE_PARAGRAPH_CHARS), prev_end)
        line = line if opening < 0 else text[opening : text.find("</answer>", opening) + len("</answer>")]
    shown = _LONE_VALUE_LINE_RE.fullmatch(line.rstrip(" \t.!?\u2026"))
    if shown is not None:  # "**1**" alone, then "\boxed{0}": two bare answers
        return [_clean(shown.group("value"))]
    named = _ANSWER_LINE_RE.match(line)
    words_before = list(re.finditer(r"[^\W\d_]+", line[: named.start("value")])) if named is not None else []
    numbered = bool(words_before) and _HEADING_WORD_RE.fullmatch(words_before[-1].group()) is not None and (
        _NUMBERING_GAP_RE.fullmatch(line, words_before[-1].end(), named.start("value")) is not None)  # type: ignore[union-attr]
    if numbered and not line[named.end("value") :].strip(" \t.:*_"):  # type: ignore[union-attr]
        return []  # "الجواب Step 1.": a heading that numbers a step, no answer
    if named is not None and not numbered:
        # "Răspunsul este 41.", "উত্তর: 82", "Final answer → 30": an answer line of any
        # language ("... Step 1.", "Answer 2" number a step: only spacing between)
        return [_clean(named.group("value"))]
    if _SENTENCE_STOP_RE.search(line.strip().rstrip(".!\u3002$*")):
        return []  # its last line reasons on after a commitment: a later paragraph may revise
    # "Final result: 13", "Endergebnis: 83.", "| Answer | 6 |", "1. Ans: 6": a label of any words
    labelled = labelled_values(line + "\n", 0, len(line) + 1) if labelled_lines else None
    if labelled:
        return labelled
    letter = _LABELLED_CHOICE_RE.fullmatch(line) if labelled_lines else None
    if letter is not None:  # "Final result: C", then "\boxed{A}"
        return [letter.group(1)]
    said = LABELLED_WORDS_RE.fullmatch(line) if labelled_lines else None
    if said is not None:  # "Final result: 十三", "| Total | eighteen |", "Final answer: option B", "\frac{13}{2}"
        rest = said.group("rest") or said.group("cell")
        option = _OPTION_RE.fullmatch(rest)
        shown = _MATH_VALUE_RE.fullmatch(rest)
        roman = ROMAN_RE.fullmatch(rest) if rest else None
        value = option.group(1) if option else spelled_value(rest) or (shown.group("v") if shown else None) or (
            str(roman_value(roman.group(0))) if roman else None)
        if value:
            return [value]
        other = any_form_value(rest) if rest else None
        if other is not None:  # "Result: 50/8", "Final result: 6\u00bd", "thirteen halves"
            return [other]
    return list(_paragraph_values(line, len(line), labelled_lines=False, look_back=False))

