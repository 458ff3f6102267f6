r"""The final answer of a completion: one allow-list grammar, shared by the math, GSM8K and
countdown verifiers (issue 30). A reward pays only what this grammar positively reads.

**Stage 1, normalise** (``verifiers.answer_text.read_visible``, once): the text as it
renders. Look-alikes through NFKC and a confusables table, invisibles out, dashes before a
digit to ``-``, tags and LaTeX spacing and text wrappers to spaces. What does not render is
removed, and a value inside it refuses the completion (``malformed``).

**Stage 2, read** (this module, once), by this grammar::

    completion  := text* [block] text* final [tail]   (no commitment: closing)
    block       := "<think>" working "</think>": with an answer after it, what it
                   tries on the way is not read; what stands before it is
    commitment  := box | answer_tag | hashes_line | answer_clause
    box         := ("\boxed" | "\fbox") group   the outermost box; a box that is its
                                                  box's whole content is unwrapped
    answer_tag  := "<answer>" content "</answer>"
    hashes_line := "####" amount (to the end of its line)
    answer_clause := ["final"] "answer" ("is" | "would be" | ":" | "=" ...) value
    final       := the commitment that starts last
    paragraph   := every commitment between the last blank line and final:
                   each must agree with final (its values are handed to the comparator,
                   joined as a set where the gold holds several values); an earlier
                   "answer" clause, in any of a closed set of languages ("Ответ: 8",
                   "答案是6。"), commits to the last side of its value unless its math
                   runs on into final; the working's last sentence before final commits
                   to the amount it concludes ("883 apples left.\n#### 881" offers two:
                   ``verifiers.concluded_line``)
    earlier     := every commitment of the paragraphs before final's (and before a
                   block), in any shape and value form, stands: each must equal the
                   gold on its own; no word takes one back
    before      := on final's line, no value on display (number, number word, bold,
                   math, code, commitment) joined to final by spacing, punctuation,
                   symbols, relations or words that do not commit to it
                   ("$6$ and \boxed{5}", "**6** / \boxed{5}", "The answer is 6. \quad
                   #### 5", "5 or \boxed{6}", "not \boxed{5}"); committing words: "is",
                   "=", "so", "gives", ... (a derivation, which must hold: a side of
                   plain arithmetic or a lone number is compared too, "2 + 3 = \boxed{6}")
    lead        := on final's line and sentence, right before it: nothing, a relation, a
                   label of answer words, or a committing word ("is", "gives", "So",
                   "答案是") -- an allow-list (``verifiers.answer_lead``): "Nearly: 5",
                   "Approaching \boxed{5}" refuse; an opener before the last comma may not
                   doubt, negate, approximate or set a scenario ("Probably, ...")
    tail        := ( space | punctuation | closing markup | prose without a value
                   | restatement of final, not denied in its sentence
                   | check "... = final" that holds where its sides are arithmetic )*
                   -- a value is a number, a number word, a box or a math constant;
                      any other value in the tail: ``hedged``. Retractions ("No wait"),
                      doubt ("probably"), approximations ("~", "or so") and a "?" on the
                      answer's sentence are refused too. The rest of the answer's own
                      sentence is read by ``own_sentence`` (``verifiers.answer_sentence``,
                      called by ``hedge_after``); a later sentence that denies the
                      answer refuses (``_later_denial``).
    closing     := "... = X" | X alone on its line
                 | a sentence whose one value X is not denied or bounded
                   ("not", "than", "to", "不是", ...): else ``hedged``

A box glued into a larger expression (``\frac{\boxed{5}}{2}``, ``\boxed{5}^2``) states that
expression (``malformed``); an open box, a box longer than ``MAX_BOX_CHARS``, a ``####`` line
longer than ``MAX_LINE_CHARS`` and a tail longer than ``MAX_TAIL_CHARS`` are refused with
their reason, never silently cut.

**Stage 3, parse and compare** (``verifiers.math_compare._compare``, GSM8K's amount reader,
countdown's expression parser): once, under one deadline for all values.

Every scan is linear: marker positions are collected once (one regex pass) and bisected,
runs are skipped in C, and each region is read once; ``benchmarks/verify_worst_case.py``
times the slowest 1 MB shapes known.

The rules live in these modules: ``verifiers.commitment_reading`` (box, answer_tag,
answer_clause), ``verifiers.answer_commitments`` (before), ``verifiers.paragraph_commitments`` (paragraph),
``verifiers.answer_tail`` (tail), ``verifiers.answer_lead`` (lead; its words in
``verifiers.lead_words``), ``verifiers.answer_sentence`` (own_sentence, and a
condition opening the answer's sentence), ``verifiers.answer_values`` (a value, its
spellings, a check ``... = X``), ``verifiers.unboxed_answer`` (closing, the last math span
and the last number), ``verifiers.box_in_expression`` (a box glued into a larger expression)
``verifiers.closing_number`` (the last number when nothing commits, and check lines after it)
``verifiers.concluded_line`` (the working's concluding sentence),
``verifiers.earlier_answers`` (earlier; the values it reads by ``verifiers.value_shapes``)
``verifiers.answer_verdict`` (the verdict on one committed answer: its form, lead,
paragraph and tail, in that order) and this one (final, hashes_line, and the entry points).

>>> final_answer(r"so $x = \boxed{\frac{1}{2}}$.").answer
'\\frac{1}{2}'
>>> final_answer(r"First guess $\boxed{5}$. Checking again, the answer is 6.").answer
'6'
>>> final_answer(r"\boxed{\boxed{5} \text{ or } 6}").problem[0]
'hedged'
>>> final_answer("So the value we want is $\\frac{14}{3}$.").answer
'\\frac{14}{3}'
"""

from __future__ import annotations

import re
from dataclasses import replace

from verifiers.answer_closing import closing_run_on
from verifiers.answer_commitments import commitments_before
from verifiers.answer_sentence import _LONE_VARIABLE_RE
from verifiers.answer_tail import (
    MAX_TAIL_CHARS,
    _later_denial,
    hedge_after,
)
from verifiers.answer_text import commented_commitment, markup_flood, read_visible
from verifiers.answer_values import (
    MAX_LINE_CHARS,
    _clean,
    _first_char,
    _sentence_end,
)
from verifiers.answer_verdict import judge_answer
from verifiers.box_in_expression import _box_in_expression
from verifiers.choice_letters import (
    choice_closing,
)
from verifiers.closing_number import _bare_number, unit_after_box
from verifiers.commitment_reading import (
    _ANSWER_TAG_RE,
    _BOX_RE,
    MAX_BOX_CHARS,
    _final_box,
    _opens_clause,
    _read_clause,
    _unwrap_box,
)
from verifiers.earlier_answers import standing_answers
from verifiers.json_answer import JsonAnswer, json_answer
from verifiers.json_notes import qualifying_note
from verifiers.labelled_lines import _ANSWER_NOUN, _NOUN_FIRST
from verifiers.reasoning_blocks import REASONING_END_MARK, REASONING_START_MARK, unclosed_reasoning
from verifiers.types import HEDGED, MALFORMED, NO_ANSWER, Accept, FinalAnswer
from verifiers.unboxed_answer import (
    _COPULA_RE,
    _approx_before,
    _closing_form,
    _last_digit,
    _last_span,
    _lead_in_gap,
    is_hedge,
    last_number,
)

__all__ = [
    "MAX_BOX_CHARS",
    "MAX_LINE_CHARS",
    "MAX_TAIL_CHARS",
    "MAX_TEXT_CHARS",
    "FinalAnswer",
    "commitments_before",
    "end_of_answer_line",
    "extract_answer",
    "extract_answer_with_source",
    "extract_final_answer",
    "hedge_after",
    "final_answer",
    "is_hedge",
    "last_boxed",
    "last_number",
]

MAX_TEXT_CHARS = 8_000_000  # a longer completion is refused outright (bounds every call)

_ANSWER_IS_RE = re.compile(
    r"\b(?:final\s+answer|answer)(?:\*\*|__)?\s*(?:(?:is|would\s+be|will\s+be|should\s+be)\b\s*:?|:|=)",
    re.IGNORECASE,
)
_MARKUP_TAG_RE = re.compile(r"</?[A-Za-z][\w.:-]*\s*/?>")

def end_of_answer_line(line: str) -> str:
    """``line`` with its markup tags read through as spaces: in ``<answer>#### 42</answer>``
    the answer is 42, and in ``#### 18 <b>or 19</b>`` it is ``18 or 19`` (a hedge), never 18.

    >>> end_of_answer_line("42</answer>"), end_of_answer_line("18 <b>or 19</b>")
    ('42', '18 or 19')
    """
    return " ".join(_MARKUP_TAG_RE.sub(" ", line).split())


# --- boxes -------------------------------------------------------------------------------


def last_boxed(text: str) -> str | None:
    r"""Content of the last outermost complete ``\boxed{}``/``\fbox{}`` in ``text``.

    >>> last_boxed(r"\boxed{1} then \boxed{\frac{a}{b}}"), last_boxed(r"\boxed 7$")
    ('\\frac{a}{b}', '7')
    """
    if not isinstance(text, str):
        return None
    box = _final_box(text)
    if box is None or isinstance(box, str):
        return None
    return text[box[1] : box[2]].strip()


# --- the answer clause and the '####' line --------------------------------------------------


_HASH_RUN_RE = re.compile(r"#*")


def _hashes_line(text: str, pos: int) -> tuple[str, int, int, int] | str:
    """``(line, value_start, value_end, line_end)`` of the ``####`` line at ``pos``, tags read
    through; a string saying why it is no answer line (too long)."""
    start = _HASH_RUN_RE.match(text, pos).end()  # type: ignore[union-attr] - always matches
    line_end = text.find("\n", start, start + MAX_LINE_CHARS + 1)
    if line_end < 0:
        line_end = text.find("\n", start)
        line_end = len(text) if line_end < 0 else line_end
    raw = text[start:line_end]
    if len(raw) > MAX_LINE_CHARS and len(raw.strip()) > MAX_LINE_CHARS:
        return f"the '####' line is longer than {MAX_LINE_CHARS} characters"
    run_on = closing_run_on(raw)
    if run_on is not None:  # "#### 57. I hope it is correct.": the tail reads the rest
        return end_of_answer_line(raw[:run_on]), start, start + run_on, line_end
    line = end_of_answer_line(raw)
    return line, start, line_end, line_end


# --- the rule -------------------------------------------------------------------------------


# Before the final "answer is": "6, or the answer is 5", "The other answer is 5".
_HEDGE_BEFORE_CLAUSE_RE = re.compile(
    r"(?:\b(?:or|nor|alternatively|otherwise|either)\b[\s,]*(?:(?:the|my|our|an?)\s+)?|"
    r"\b(?:other|another|alternative|second)\s+)(?:final\s+)?\Z",
    re.IGNORECASE,
)


_DETERMINERS_BEFORE_RE = re.compile(
    # (on the clause's line: "**最终答案**" closing the line before is a heading, not its bold)
    # (possessive, one star run read once: "**" or "*" twice split 40 stars 2^40 ways, h50)
    r"(?:(?:\b(?:the|our|my|your|its|this)\b|\*++|_{2,}+)[ \t]*+)++\Z", re.IGNORECASE
)


def _clause_start(text: str, pos: int) -> int:
    """Where the "answer is" clause whose "answer" starts at ``pos`` begins: its determiners
    ("The", "our") belong to it, so "**6**, The answer is 5" offers 6 beside it."""
    m = _DETERMINERS_BEFORE_RE.search(text, max(0, pos - 40), pos)
    return pos if m is None else m.start()


def _last_answer_is(text: str) -> re.Match[str] | None:
    """The last "answer is" / "answer:" that commits to a value: one regex pass collects
    the candidates, which are judged from the last."""
    if "answer" not in text.lower():
        return None
    for m in reversed(list(_ANSWER_IS_RE.finditer(text))):
        if _opens_clause(text, m):
            return m
    return None


def final_answer(text: str, accept: Accept | None = None) -> FinalAnswer:
    r"""The final answer of ``text`` by the rule in the module docstring.

    ``accept``, when given, is asked once, as soon as the committed answer is read, whether it
    may be right (the caller compares it with its gold). If it says no, the rest of the reading
    (what else the paragraph offers, the tail) is skipped and the answer comes back with
    ``rejected`` set: it scores 0 whatever else stands there, and a wrong answer, the common
    case in RL, costs about a seventh of a right one on GSM8K (``benchmarks/verify_speed.py``).

    >>> final_answer("The answer is $5$ (i.e. $6$).").problem
    ('hedged', "another value after the final answer: '(i.e. $6$).'")
    >>> final_answer("Draft: #### 18\nso the correct total is $\\boxed{17}$").answer
    '17'
    >>> final_answer("#### 18\nNo wait, it is 17.").problem[0]
    'hedged'
    """
    if not isinstance(text, str) or not text:
        return FinalAnswer(None, "none")
    if len(text) > MAX_TEXT_CHARS:
        return FinalAnswer(
            None, "none", 0, (MALFORMED, f"completion longer than {MAX_TEXT_CHARS} characters")
        )
    flood = markup_flood(text)
    if flood is not None:
        return FinalAnswer(None, "none", 0, (MALFORMED, flood))
    if unclosed_reasoning(text):
        return FinalAnswer(None, "none", 0, (NO_ANSWER, "the reasoning block never closes: no final answer"))
    text, hidden = read_visible(text, mark_reasoning_end=True, emoji_as_space=True, numerals=True)
    if hidden is not None:
        why = f"a value in content that does not render: {hidden!r}"
        return FinalAnswer(None, "none", 0, (MALFORMED, why))
    working, marked, answer_part = text.partition(REASONING_END_MARK)
    before, opened, working = working.rpartition(REASONING_START_MARK)
    text = before + working + answer_part
    commented = commented_commitment(text)
    if commented is not None:
        why = f"a commitment in a TeX comment (shown as text, hidden by LaTeX): {commented!r}"
        return FinalAnswer(None, "none", 0, (MALFORMED, why))
    if marked and answer_part.strip():
        # A closed reasoning block is the working: an answer after it is read alone, and what
        # the block tried on the way ("<think>The answer is 5? ...</think> \boxed{4}") does not
        # compete with it. With no answer after it, the block's own answer is the answer.
        after = _read(answer_part, accept)
        if after.answer is not None and after.problem is None and not after.rejected and before.strip():
            # what stands before the block is no working: its commitments stand
            # ("Answer: 73\n\n<think>...</think>\n\n75" offers two answers)
            earlier = standing_answers(before + "\n\n.", len(before) + 2)
            after = replace(after, standing=tuple(dict.fromkeys((*after.standing, *earlier))))
        if after.answer is not None or after.problem is not None:
            return after
    return _read(text, accept)


# An answer label alone on its line, the value alone on the text's last line or on a short line
# of its own: one answer line ("**Answer:**\n\n898" is "**Answer:** 898").
_LABEL_ALONE_RE = re.compile(
    rf"^[ \t>*_#]*(?i:(?:the[ \t]+)?(?:final[ \t]+)?{_NOUN_FIRST}{_ANSWER_NOUN}(?:[ \t]+is)?)[ \t*_]*[:\uff1a][ \t*_]*"
    r"(?P<gap>(?:[ \t]*\n)+[ \t]*)(?=[^\n]+\n?\Z|(?=[^\n]{0,10}[\d$\\])[^\n]{1,40}(?:\n|\Z))", re.MULTILINE)


def _read(text: str, accept: Accept | None) -> FinalAnswer:
    """``final_answer`` of a visible text (``read_visible``'s, with no hidden value)."""
    alone = _LABEL_ALONE_RE.search(text, max(0, len(text) - 300))
    if alone is not None:
        text = text[: alone.start("gap")] + " " + text[alone.end("gap") :]
    box = _final_box(text)
    if isinstance(box, str):
        return FinalAnswer(None, "boxed", len(text), (MALFORMED, box))
    hashes = text.rfind("####")
    if hashes > 0:  # the first '#' of its run, in C
        hashes = len(text[:hashes].rstrip("#"))
    if hashes > 0:
        # "#### 19 #### 18" is one line that holds two values, read from its first '####'
        hashes = text.find("####", text.rfind("\n", 0, hashes) + 1)
    answer_is = _last_answer_is(text)
    tag = _last_answer_tag(text)
    js = json_answer(text)
    if js is not None and js.problem is not None:
        return FinalAnswer(None, "json", len(text), js.problem)
    starts = {
        "boxed": -1 if box is None else box[0],
        "####": hashes,
        "answer_is": -1 if answer_is is None else answer_is.start(),
        "answer_tag": -1 if tag is None else tag.start(),
        "json": -1 if js is None else js.start,
    }
    if js is not None:  # what stands inside the object is read as JSON, never as prose
        starts = {k: (-1 if k != "json" and js.start <= at < js.end else at) for k, at in starts.items()}
    source = max(starts, key=lambda k: starts[k])
    if starts[source] < 0:
        return _fallback(text)
    last_break = text.rfind("\n\n")
    if starts[source] < last_break and source != "json" and text[last_break:].strip():
        # a later paragraph that closes with an answer the commitments above do not read
        # ("Answer: 2\n\n...\n\nLa risposta \u00e8 2.") is the final answer; the earlier
        # commitment stands beside it (``verifiers.earlier_answers``)
        later = _fallback(text)
        if later.answer is not None and later.problem is None and later.end > last_break:
            return later
    if source == "json":  # '{"answer": 5}' ends the completion: the object is read by json
        return _json_final(text, js, accept)  # type: ignore[arg-type]
    if source == "answer_tag":  # "<answer>5</answer>": the tag's whole content is the answer
        return judge_answer(
            text, tag.group(1), "answer_tag", tag.start(1), tag.end(), before_at=tag.start(),  # type: ignore[union-attr]
            earlier_at=tag.start(), accept=accept,  # type: ignore[union-attr]
        )
    # A box in the first sentence of the '####' line is part of that line's answer
    # ("#### 19 \boxed{18}"); one after it ("#### 18 ... so it is \boxed{17}") is later.
    if (
        source == "boxed"
        and 0 <= hashes < box[0]  # type: ignore[index]
        and _sentence_end(text, _first_char(text, hashes + 4)) > box[0]  # type: ignore[index]
    ):
        source = "####"
    if source in ("####", "answer_is") and box is not None and box[0] < starts[source] < box[3]:
        source = "boxed"  # "\boxed{#### 5}": the box holds it
    if source == "boxed":
        start, c_start, c_end, end = box  # type: ignore[misc]
        content, why = _unwrap_box(text[c_start:c_end])
        if why is not None:
            return FinalAnswer(_clean(content), "boxed", end, (HEDGED, why))
        found = judge_answer(text, content, "boxed", start, end, before_at=start, earlier_at=start, accept=accept)
        inside = None if found.problem or found.rejected else _box_in_expression(text, start, end) or _lead_in_gap(text, start) or _lead_in_gap(text, start, _COPULA_RE)
        if inside is not None:
            return FinalAnswer(found.answer, "boxed", end, inside)
        unit = None if found.problem or found.rejected or found.answer is None else unit_after_box(text, end)
        return found if unit is None else replace(found, unit=unit)
    if source == "####":
        line = _hashes_line(text, hashes)
        if isinstance(line, str):
            return FinalAnswer(None, "####", len(text), (MALFORMED, line))
        value, _, line_end, _ = line
        return judge_answer(text, value, "####", hashes, line_end, before_at=hashes, earlier_at=hashes, accept=accept)
    clause = _read_clause(text, answer_is.end())  # type: ignore[union-attr]
    if clause is None:
        return _fallback(text)
    lead = text[max(0, answer_is.start() - 60) : answer_is.start()]  # type: ignore[union-attr]
    if _HEDGE_BEFORE_CLAUSE_RE.search(lead):
        found = judge_answer(text, clause[0], "answer_is", clause[1], clause[2], before_at=None)
        why = "another answer offered just before it"
        return FinalAnswer(found.answer, "answer_is", clause[2], (HEDGED, why))
    value, v_start, v_end = clause
    found = judge_answer(
        text, value, "answer_is", v_start, v_end, before_at=_clause_start(text, answer_is.start()),  # type: ignore[union-attr]
        earlier_at=answer_is.start(), accept=accept,  # type: ignore[union-attr]
    )
    if found.problem is None and found.answer is not None and not found.rejected:
        problem = _approx_before(text, v_start)
        if problem is not None:
            return FinalAnswer(found.answer, found.source, found.end, problem)
    return found


def _json_final(text: str, js: JsonAnswer, accept: Accept | None) -> FinalAnswer:
    """The final answer of a JSON object that ends ``text``: read as a commitment in the text,
    and its working members ("reasoning", "steps", ...) read as the sentences just before "The
    answer is <value>." on its line (members stand side by side), so that a value they offer
    beside it ("maybe 448", "unsure between 197 and 198") refuses it."""
    found = judge_answer(text, js.value, "json", js.start, js.end, before_at=js.start, earlier_at=js.start,  # type: ignore[arg-type]
                    accept=accept)
    if found.problem is not None or found.rejected or not js.notes:
        return found
    inner = final_answer(f"{js.prose} The answer is {js.value}.")
    problem = inner.problem or _later_denial(js.prose, (js.value,))  # "it is not 979": said of it
    note = qualifying_note(js.notes) if problem is None else None  # "probably", "\u2265", "in millions"
    if note is not None:
        problem = (HEDGED, f"a member beside the JSON answer qualifies it: {note[:40]!r}")
    if problem is not None:
        return FinalAnswer(found.answer, "json", found.end, problem)
    # the values the working offers beside it must each be the answer too (the comparator's)
    alternatives = tuple(dict.fromkeys((*found.alternatives, *inner.alternatives)))
    return FinalAnswer(found.answer, "json", found.end, None, alternatives, standing=found.standing)


def _last_answer_tag(text: str) -> re.Match[str] | None:
    """The last complete ``<answer>...</answer>`` holding no box (a box inside is read as
    the box), found from the end."""
    close = text.rfind("</answer>")
    if close < 0:
        return None
    start = text.rfind("<answer>", max(0, close - 1_008), close)
    if start < 0:
        return None
    m = _ANSWER_TAG_RE.match(text, start)
    if m is None or _BOX_RE.search(m.group(1)) or "####" in m.group(1):
        return None
    return m


def _fallback(text: str) -> FinalAnswer:
    letter = choice_closing(text)  # "Ответ: B", "答案是B": a choice letter closes it
    if letter is not None:
        answer, start, end = letter
        return judge_answer(text, answer, "answer_is", start, end, before_at=start, earlier_at=start)
    span = _last_span(text, len(text))
    for _ in range(4):
        if span is None or not _LONE_VARIABLE_RE.fullmatch(text, span[1], span[2]):
            break
        span = _last_span(text, span[0])
    if span is not None:
        start, c_start, c_end, end = span
        if _last_digit(text) < end:  # no digit after the span: the span is the answer
            found = judge_answer(text, text[c_start:c_end], "math_span", start, end, before_at=start)
            form = None if found.problem else _closing_form(text, start)
            return found if form is None else FinalAnswer(found.answer, found.source, end, form)
    return _bare_number(text)


# --- the older interface ------------------------------------------------------------------


def extract_final_answer(text: str) -> tuple[str, str, str | None] | None:
    """``(answer, source, why)``: the final answer, where it was read, and why it scores 0
    whatever it is (a hedge, a retraction), else None; None when there is no answer.

    >>> extract_final_answer("The answer is 5. No wait")
    ('5', 'answer_is', "taken back or doubted later: 'No wait'")
    """
    found = final_answer(text)
    if found.answer is None:
        return None
    return found.answer, found.source, None if found.problem is None else found.problem[1]


def extract_answer_with_source(text: str) -> tuple[str, str] | None:
    """``(answer, source)`` where source is ``boxed``, ``####``, ``answer_is``,
    ``math_span`` or ``last_number``; None when there is no answer.

    >>> extract_answer_with_source("#### 1,000")
    ('1,000', '####')
    """
    found = final_answer(text)
    return None if found.answer is None else (found.answer, found.source)


def extract_answer(text: str) -> str | None:
    """The final answer in ``text`` (see the module docstring), or None."""
    found = extract_answer_with_source(text)
    return None if found is None else found[0]
