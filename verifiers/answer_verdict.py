r"""The verdict on one committed answer (issue 30): ``judge_answer`` reads what stands in and
around the commitment that ``verifiers.math_extract`` found, in the grammar's order.

1. **Its own form**: a box that is the whole answer is unwrapped; an amount restated in words
   or digits in parentheses is one amount (``#### 4 (four)``); a ``####`` line's or clause's
   tail (``57 That is our answer.``) and a constant aside (``\boxed{\frac14\ (1)}``,
   ``verifiers.restated_values``) are split off; a plus after the amount, an approximation,
   a question mark, a retraction, a scale word or a second value in the amount refuse.
2. **Its lead**: a qualifier (``Probably:``), an unread or uncommitted lead-in, an example's
   lead (``e.g.``), a hedge or another value on display right before it, a value restated by
   "i.e." before it.
3. **Its paragraph and the working** (only for an answer nothing refused yet): the paragraph's
   other commitments, choice letters and options chosen in words, the working's concluding
   sentence, earlier shapes, and the earlier paragraphs' standing answers.
4. **Its tail**: ``hedge_after`` and a condition opening its sentence.

The answer comes back as a ``FinalAnswer`` with the other values it offers (``alternatives``,
``standing``): the comparator must find each equal to the gold.
"""

from __future__ import annotations

import re

from verifiers.answer_commitments import _alternative_before, _hedge_before
from verifiers.answer_lead import example_lead, lead_start, uncommitted_lead, unread_clause_lead
from verifiers.answer_sentence import _condition_before
from verifiers.answer_tail import (
    _APPROX_AFTER_RE,
    _RETRACT_RE,
    _SCALE_AFTER_RE,
    _later_denial,
    hedge_after,
    split_line_answer,
)
from verifiers.answer_values import _TAIL_EXTRA_VALUE_RE, _clean, _sentence_start
from verifiers.choice_letters import as_option_values, chosen_option_values, offered_choices
from verifiers.commitment_reading import _BOX_RE, _unwrap_box
from verifiers.concluded_line import concluded_values
from verifiers.earlier_answers import shaped_before, standing_answers
from verifiers.number_words import read_number_words
from verifiers.paragraph_commitments import MAX_COMMITMENTS, _paragraph_values
from verifiers.qualifier_words import LEAD_CHARS, qualified_lead
from verifiers.restated_values import box_aside, restated_before
from verifiers.spelled_numbers import spelled_value
from verifiers.types import HEDGED, MALFORMED, Accept, FinalAnswer

__all__ = ["judge_answer"]

_APPROX_START_RE = re.compile(
    r"\s*(?:~|\u2248|\u223c|\\approx|\\sim(?![a-z])|\\simeq|(?:about|around|approximately|"
    r"approx\.?|roughly|nearly|almost|circa|close\s+to|at\s+least|at\s+most|more\s+than|"
    r"less\s+than|up\s+to)\b)",
    re.IGNORECASE,
)


def _approximate(value: str) -> bool:
    return _APPROX_START_RE.match(value) is not None or _APPROX_AFTER_RE.search(value) is not None


# An integer amount followed by the same amount in English words, in parentheses.
_WORDS_RESTATED_RE = re.compile(r"(\d{1,3}(?:,\d{3})*|\d{1,7})\s*\(\s*([A-Za-z][A-Za-z \-]{0,80}?)\s*\)")
# The same, the other way round: an amount in English words, then in digits in parentheses.
_DIGITS_RESTATED_RE = re.compile(r"([A-Za-z][A-Za-z \-]{0,80}?)\s*\(\s*(\d{1,3}(?:,\d{3})*|\d{1,7})\s*\)")
_DIGIT_SPACE_RE = re.compile(r"\d[ \t~]+")
# In a line's amount after its number: another value (a Roman numeral, a number word of
# another language, or an English number word below a hundred: "#### 26 / two").
_LINE_EXTRA_VALUE_RE = re.compile(
    _TAIL_EXTRA_VALUE_RE.pattern + r"|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety)\b",
    re.IGNORECASE,
)


_PLUS_AFTER_RE = re.compile(r"[\w%\u0080-\uffff][ \t]*\+[ \t.!]*\Z")


def judge_answer(
    text: str,
    answer: str,
    source: str,
    start: int,
    end: int,
    *,
    before_at: int | None,
    earlier_at: int | None = None,
    accept: Accept | None = None,
) -> FinalAnswer:
    """The verdict on ``answer`` read at ``text[start:end]``: its own form, what stands just
    before the commitment that starts at ``before_at`` (None: not checked), the commitments
    of its paragraph before ``earlier_at`` (None: not read), and its tail. An answer that
    ``accept`` rejects is returned as soon as it is read, unchecked (see ``final_answer``)."""
    answer = _clean(answer)
    if _BOX_RE.match(answer):  # "#### \\boxed{18}": the box is the whole answer
        content, why = _unwrap_box(answer)
        answer = _clean(content) if why is None else answer
    if not answer:
        return FinalAnswer(None, source, end, None)
    restated = _WORDS_RESTATED_RE.fullmatch(answer)
    if restated is not None and read_number_words(restated.group(2)) == int(
        restated.group(1).replace(",", "")
    ):
        answer = restated.group(1)  # "#### 4 (four)": the same amount restated in words
    restated = _DIGITS_RESTATED_RE.fullmatch(answer)
    if restated is not None and read_number_words(restated.group(1)) == int(restated.group(2).replace(",", "")):
        answer = restated.group(2)  # "The answer is six (6).": the same amount restated in digits
    problem = None
    plus = source in ("####", "answer_is") and _PLUS_AFTER_RE.search(answer) is not None
    split = split_line_answer(answer)  # "#### 57 That is our answer.": amount, then a tail
    if split is not None and source in ("####", "answer_is"):
        answer, problem = split
    if problem is None and plus:
        problem = (HEDGED, "a plus after the amount: or more")  # "#### 5 dollars+", "€333990+"
    elif split is not None and answer[len(split[0]) :].lstrip().startswith("("):
        problem = split[1]  # "\boxed{5 \text{ (guess)}}": a parenthesis in the box too
    asides: tuple[str, ...] = ()
    aside = box_aside(answer) if split is None and problem is None else None
    if aside is not None:  # "\boxed{\frac14\ (\frac11)}": the aside is another value offered
        answer, asides = aside[0], aside[1:]
    if problem is None and accept is not None and not accept(answer, source):
        return FinalAnswer(answer, source, end, None, rejected=True)
    if problem is None and _approximate(answer):
        problem = (HEDGED, "an approximate answer")
    if problem is None:  # "Wrong answer: 5", "Probably: \boxed{72}", "At least \boxed{72}."
        lead = qualified_lead(text[max(text.rfind("\n", 0, start) + 1, start - LEAD_CHARS) : start])
        problem = None if lead is None else (HEDGED, lead)
    if problem is None and before_at is not None:
        head = text[lead_start(text, _sentence_start(text, before_at)) : before_at]
        problem = unread_clause_lead(head) if source == "answer_is" else uncommitted_lead(head)
        if problem is None and example_lead(text[max(0, before_at - 40) : before_at]):
            problem = (HEDGED, "the final value is given as an example")  # "p. ej. \boxed{5}": its stop splits no sentence
    if problem is None and source != "boxed" and "?" in answer:
        problem = (HEDGED, "a question mark in the answer")
    if problem is None and _RETRACT_RE.search(answer):
        problem = (HEDGED, "the answer takes itself back")
    # (a box's scale word is read by the comparator: "\boxed{5 squared}" is wrong)
    if problem is None and source != "boxed" and any(_SCALE_AFTER_RE.match(answer, m.end()) for m in _DIGIT_SPACE_RE.finditer(answer)):
        problem = (MALFORMED, "a word in the answer scales its number")  # "#### 2 millones"
    if problem is None and source in ("####", "answer_is"):
        # "#### 1 / II", "The answer is 5 o nueve": a line's amount holds one value
        digit = re.search(r"\d", answer)
        extra = None if digit is None else _LINE_EXTRA_VALUE_RE.search(answer, digit.end())
        if extra is not None:
            problem = (HEDGED, f"another value in the answer: {extra.group(0)!r}")
        elif any(_APPROX_AFTER_RE.match(answer, m.end()) for m in _DIGIT_SPACE_RE.finditer(answer)):
            problem = (HEDGED, "a bound after the answer's number")  # "#### 8 tops"
    if problem is None and _BOX_RE.search(answer):
        problem = (HEDGED, "a box inside the answer, next to other text")
    alternatives: tuple[str, ...] = ()
    if problem is None and before_at is not None:
        problem = _hedge_before(text, before_at, line_form=source in ("####", "answer_tag"))
        if problem is None:
            alternative = _alternative_before(text, before_at)
            if isinstance(alternative, tuple):
                problem = alternative
            elif alternative is not None:
                alternatives = (alternative,)
            restated = restated_before(text, before_at)  # "So $x = 6$, i.e. $\boxed{5}$"
            alternatives = alternatives if restated is None else (*alternatives, restated)
    standing: tuple[str, ...] = ()
    # (what else the paragraph offers matters only to an answer that nothing refused yet)
    earlier = () if earlier_at is None or problem is not None else _paragraph_values(text, earlier_at)
    if before_at is not None and problem is None:  # "(E) is correct. \boxed{B}": other letters
        earlier = (*earlier, *offered_choices(text, before_at, answer), *chosen_option_values(text, before_at, answer))
    if earlier_at is not None and problem is None:  # "883 apples left.\n#### 881": the working concludes
        earlier = (*earlier, *concluded_values(text, earlier_at, answer), *shaped_before(text, earlier_at))
        # "\boxed{21}\n\n...\n\n\boxed{12}": each must be right alone (no set spelled across paragraphs)
        standing = tuple(a if a[:1].isdigit() else spelled_value(a) or a for a in standing_answers(text, earlier_at))  # "\boxed{21}\n\n...\n\n\boxed{12}"
    # a value in words is compared as its number ("The answer is six. \boxed{6}")
    spelled = ((a if a[:1].isdigit() else spelled_value(a) or a) for a in (*earlier, *alternatives, *asides))
    alternatives = tuple(dict.fromkeys(a for a in spelled if a != answer))
    if alternatives or standing:  # "So the answer is (c)." over "c. 36" offers 36
        alternatives = tuple(a for a in as_option_values(text, end, answer, alternatives) if a != answer)
        standing = as_option_values(text, end, answer, standing)
    if problem is None and len(alternatives) > MAX_COMMITMENTS:
        problem = (HEDGED, f"more than {MAX_COMMITMENTS} different answers in the final paragraph")
    if problem is None:
        problem = hedge_after(text, end, (answer, *alternatives)) or _condition_before(text, start)
    if problem is None and source == "####" and "." in answer:
        problem = _later_denial(answer, ())  # "#### 147. Ignore the above."
    return FinalAnswer(answer, source, end, problem, alternatives, standing=standing)
