r"""What may stand ``before`` final on its line (``_hedge_before``, ``_alternative_before``),
and the earlier commitments of the final paragraph (``_paragraph_values``,
``commitments_before``, labels, ``_runs_on``) -- the ``before`` and ``paragraph`` rules of the
grammar in ``verifiers.math_extract`` (issue 30). How one commitment is read (boxes,
``<answer>`` tags, "answer is" clauses: the ``box`` and ``answer_clause`` rules) is in
``verifiers.commitment_reading``.

Round 3 (h16): the paragraph's earlier commitments also include any ``<label>: <value>`` or
``<label> <value>`` line, whatever the label's word or script, whose number no later
arithmetic of the paragraph uses (``_labelled_lines``), and multiple-choice letters; a clause
runs on into the final answer only when the math span holding it opens after the clause
(``_open_math_at``, ``_runs_on``: an empty ``${}$`` runs on into nothing); and a bound or an
approximation sign right before the commitment refuses it (``_hedge_before``)."""

from __future__ import annotations

import re

from verifiers.answer_text import visible_text
from verifiers.answer_values import _TAIL_VALUE_RE, _UNIT_POWER_RE, _clean, _seen, _sentence_start
from verifiers.commitment_reading import (
    _ANSWER_TAG_RE,
    _BOX_RE,
    MAX_BOX_CHARS,
    _box_at,
    _last_bare_dollar,
    _last_marker,
    _opens_clause,
    _read_clause,
    _token_around,
    _unwrap_box,
)
from verifiers.exact_numbers import find_numbers
from verifiers.labelled_lines import (
    _ANSWER_LINE_RE,
    _ANSWER_NOUN,
    _COMMIT_WORD_RE,
    _HEADING_WORD_RE,
    _LONE_VALUE_LINE_RE,
    _NON_LATIN_LETTER,
    READ_BACK_CHARS,
    labelled_values,
    value_first_values,
)
from verifiers.qualifier_words import qualified_before
from verifiers.spelled_numbers import spelled_value
from verifiers.types import HEDGED
from verifiers.unread_slots import unread_slot_words

MAX_COMMITMENTS = 8  # more different answers than this in the final paragraph: hedged


# Just before a box (or a final math span): another value and a connector, "5 or \boxed{6}",
# "$5$, \boxed{6}", "not \boxed{5}", "either \boxed{5}".
_HEDGE_BEFORE_RE = re.compile(
    r"(?:\b(?:nor|not|never|vs\.?|versus|than|either|and/or|except|but|exceeds?|exceeding|"
    # a bound on the answer, not a maximum asked for ("Zach can have at most \boxed{2}"): after
    # a copula its subject is the answer itself
    r"(?:is|are|was|were|be|'s)\s+(?:at\s+least|at\s+most|up\s+to|over|under|above|below|"
    r"beyond)|bukan|hindi|"
    # contractions and the negated copulas of more languages ("The answer isn't \boxed{5}",
    # "La respuesta no es \boxed{5}", Portuguese, Swedish, Finnish, Danish/Norwegian, Dutch,
    # Hungarian, Greek, Vietnamese)
    r"(?:is|are|was|were|ai|wo|ca|would|could|should|must|might|need|does|do|did)n['\u2019]t(?:\s+(?:be|equal))?|"
    r"cannot(?:\s+be)?|no\s+es|n\u00e3o\s+\u00e9|inte|ei\s+ole|ikke|niet|nem|"
    r"\u03b4\u03b5\u03bd(?:\s+\u03b5\u03af\u03bd\u03b1\u03b9)?|kh\u00f4ng(?:\s+ph\u1ea3i)?(?:\s+l\u00e0)?|"
    r"non(?:\s+(?:\u00e8|e|est))?|nie(?:\s+jest)?|mehr\s+als|weniger\s+als|m\u00e1s\s+de|"
    r"menos\s+de|plus\s+de|moins\s+de|"
    + _seen("\u0431\u043e\u043b\u044c\u0448\u0435|\u043c\u0435\u043d\u044c\u0448\u0435|\u043d\u0435")
    + r")|\\(?:lor|vee|neq?)|"
    r"\u4e0d\u662f|\u5927\u4e8e|\u5c0f\u4e8e|\u8d85\u8fc7|\u4e0d\u5230)"
    r"\s*(?:(?:\$\$?|\\\(|\\\[)\s*)?\Z",
    re.IGNORECASE,
)


# Approximation words outside the answer ("about \boxed{18}"). A symbol before a box is not
# one: in "24000 \cdot 1.01^{30} \approx \boxed{32348}" it relates the expression before it
# to the (rounded) answer the question asked for.
_APPROX_BEFORE_RE = re.compile(
    r"(?:(?<!\\)\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|circa|ca\.|"
    r"close\s+to|maybe|perhaps|probably|possibly|some|just\s+(?:over|under)|etwa|"
    r"ungef\u00e4hr|environ|aproximadamente|aprox\.?|circa|oko\u0142o|"
    + _seen("\u043e\u043a\u043e\u043b\u043e|\u043f\u0440\u0438\u043c\u0435\u0440\u043d\u043e")
    + r")|"
    # other scripts, without \b; a sign that opens the statement ("~5", not "x \approx 5",
    # and not LaTeX's tie "is~5")
    r"\u7ea6|\u5927\u7ea6|\u7d04|\u304a\u3088\u305d|\uc57d|"
    r"(?:^|(?<=[:(])|(?<=[:(] )|(?<=[A-Za-z]{2} ))(?:~|\u2248|\u223c|\u2243))\s*(?:(?:\$\$?|\\\(|\\\[)\s*)?\Z",
    re.IGNORECASE | re.MULTILINE,
)


# A relation other than "=" right before the answer bounds it ("$x \le \boxed{5}$", "So the
# answer is \ge $\boxed{5}$"): the answer is a bound, not the value. (Not a ">" that closes
# a tag, nor the arrows "->", "=>".)
_BOUND_BEFORE_RE = re.compile(
    r"(?:(?<![-=>])<|(?<![-=<])>|<=|>=|=<|[\u2264\u2265\u2266\u2267\u226a\u226b\u2272\u2273\u2a7d\u2a7e\u227a\u227b]|"
    r"\\(?:le|leq|ge|geq|lt|gt|leqslant|geqslant|leqq|geqq|ll|gg|lesssim|gtrsim|prec|succ|"
    r"preceq|succeq|nless|ngtr|nleq|ngeq|lneq|gneq)(?![A-Za-z]))\s*(?:(?:\$\$?|\\\(|\\\[)\s*)?\Z"
)
_TAG_BEFORE_RE = re.compile(r"<[A-Za-z/][^<>]{0,300}>\s*(?:(?:\$\$?|\\\(|\\\[)\s*)?\Z")
# An approximation sign right before the answer with no expression on its left: after a
# word, a contraction, a colon or an opening delimiter ("So it's \u2248 $\boxed{5}$", "The
# answer is $\approx \boxed{5}$"), it qualifies the answer; after an expression
# ("$\sqrt{24} \approx \boxed{4.9}$") it derives it. (A "~" glued to a word is LaTeX's tie.)
_APPROX_SIGN_BEFORE_RE = re.compile(
    r"(?:^|[:(\[{]|\$|\\\(|\\\[|(?<![\\A-Za-z])[^\W\d_]{2,}|'s|\u2019s)[ \t]*"
    r"(?:(?<=[\s:(\[{$])~|[\u2248\u2243\u2252\u223c\u2245\u2273\u2272]|\\(?:approx|sim|simeq|thickapprox|thicksim|approxeq)"
    r"(?![A-Za-z]))[ \t]*(?:(?:\$\$?|\\\(|\\\[)[ \t]*)?\Z",
    re.MULTILINE,
)


def _hedge_before(text: str, start: int, *, line_form: bool = False) -> tuple[str, str] | None:
    """A hedge or approximation word just before the commitment at ``start`` ("not
    \boxed{5}", "about \boxed{18}"); for a form that opens its own line (``####``, a tag) only
    on that line: "... than not" ending the line before "#### 22" is prose."""
    k = _before_openings(text, start)
    if line_form and "\n" in text[k:start]:
        return None
    before = text[max(0, k - 60) : k]
    if _HEDGE_BEFORE_RE.search(before):
        return HEDGED, "another answer offered just before it"
    if _APPROX_BEFORE_RE.search(before) or _APPROX_SIGN_BEFORE_RE.search(before):
        return HEDGED, "an approximate answer"
    if qualified_before(before):
        return HEDGED, "a bound or an estimate, not the value"
    if (_BOUND_BEFORE_RE.search(before) and not _TAG_BEFORE_RE.search(before)
            and not _BLOCKQUOTE_RE.fullmatch(text, text.rfind("\n", 0, k) + 1, k)):
        return HEDGED, "a bound before the answer, not its value"
    return None


# Markdown's quote markers opening a line ("> **Answer:** 5", "> > 5"): no relation.
_BLOCKQUOTE_RE = re.compile(r"[ \t]*(?:>[ \t]*)+")


# What may join a value to the final commitment on its line without committing to either:
# up to three short words or symbols ("and", "&", "/", "|", "~", a dash, a LaTeX line break).
# (relations too: "6 \ne \boxed{5}" or "6 < \boxed{5}" states no answer of 5 alone; not
# "\approx", which like "=" derives the answer: "24000 \cdot 1.01^{30} \approx \boxed{32348}")
_JOINER_SYMBOLS = (
    r"[&/+|~(\[\u2013\u2014\u00b1\u2213\u2260\u2264\u2265<>-]+|\\\\|</?answer>|"
    r"\\(?:lor|vee|land|wedge|pm|mp|neq?|[lg]eq?)(?![A-Za-z])"
)


# A word of any script, its combining marks included (Devanagari vowel signs are no letters).
_JOINER_WORD = r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f]){1,12}"


_JOINER_BEFORE_RE = re.compile(
    # (a ">" closes a tag or a value's markup; one that opens its line quotes it: "> 所以答案为")
    rf"(?:(?<=[\d$}})*.`])|(?<=\S>))[ \t]*[,;\uff0c]?[ \t]*(?:(?:{_JOINER_WORD}|{_JOINER_SYMBOLS})[ \t]*){{1,3}}\Z"
)


# An answer clause of any language that ends in its value ("Răspunsul este 4", "Ответ 8").
_NAMED_VALUE_RE = re.compile(
    rf"[^\n\d]{{0,60}}?{_ANSWER_NOUN}[^\n\d]{{0,30}}?[-+]?\d[\d,.]*[\s*_$]*", re.IGNORECASE)
# A value shown alone, with markup only ("**9**", "$6$", "1").
_LONE_SHOWN_RE = re.compile(r"[\s*_$]*[-+]?\d[\d,.]*[\s*_$]*")
# The starts of the last one to three joiner tokens before a commitment, and the word
# before a joiner.
_JOINER_TOKENS_RE = re.compile(
    rf"(?<=[ \t])(?:(?:{_JOINER_WORD}|{_JOINER_SYMBOLS})[ \t]*){{1,3}}\Z"
)


def _value_word_at(text: str, line_start: int, span: tuple[int, int], stop: int) -> bool:
    """Whether ``text[span[0]:span[1]]`` reads as one value in its context on the line."""
    last = None
    for last in _TAIL_VALUE_RE.finditer(text, max(line_start, span[0] - 40), stop):  # noqa: B007
        if last.start() >= span[0]:
            break
    return last is not None and last.span() == span


_JOINER_TOKEN_RE = re.compile(rf"{_JOINER_WORD}|{_JOINER_SYMBOLS}")


_WORD_BEFORE_RE = re.compile(r"(?:^|[\s$*`(])([^\W\d_]{2,12}|[^\s$*`(]{1,12})[ \t]*\Z", re.MULTILINE)


# Nothing but spacing, punctuation and those symbols: two values side by side.
_SIDE_BY_SIDE_RE = re.compile(rf"(?:[ \t.,;!?\u3001\u3002]|{_JOINER_SYMBOLS})*\Z")




# The end of a value just before a joiner: a closing box brace, math delimiter, bold, answer tag.
_VALUE_CLOSE_RE = re.compile(r"(?:\*\*|</answer>|\\\)|\$|`|\*)\Z")


def _alternative_before(text: str, start: int) -> str | tuple[str, str] | None:
    r"""The value offered just before the commitment starting at ``start``, on its line, with
    nothing that commits to either between them ("A, or \boxed{B}", "$6$ and \boxed{5}",
    "**6** / <answer>5</answer>", "The answer is 6. ~ \boxed{5}", "$6$ \qquad #### 5"): A as
    text, or why the text there is a hedge that cannot be read; None when no value is
    offered there (a derivation "... = \boxed{5}", "so \boxed{5}", or a new line)."""
    k = _before_openings(text, start)
    has_or = text[max(0, k - 2) : k].lower() == "or" and not text[k - 3 : k - 2].isalpha()
    line_start = text.rfind("\n", 0, start) + 1
    if has_or:
        k -= 2
    elif k > line_start:
        # "$6$ and $\boxed{5}$", "6 to \boxed{7}": a value joined to the answer by words that
        # do not commit to it (no "is", "=", "gives", ...) is offered beside it
        joiner = _JOINER_BEFORE_RE.search(text, max(line_start, k - 40), k)
        if joiner is not None and joiner.group().lstrip(" \t")[:1] in ",;\uff0c":
            said = text[_sentence_start(text, joiner.start()) : joiner.start()]
            if not (_LONE_SHOWN_RE.fullmatch(said) or _NAMED_VALUE_RE.fullmatch(said)):
                # "We find $x = 3$, and the answer is 6": a derivation, not "**9**, and" or
                # "Răspunsul este 4, and \boxed{2}"
                joiner = None
        if joiner is not None and not _COMMIT_WORD_RE.search(joiner.group()):
            k, has_or = joiner.start(), True
        else:  # a number word before the joiner ("one and <answer>0</answer>")
            run = _JOINER_TOKENS_RE.search(text, max(line_start, k - 40), k)
            starts = [t.start() for t in _JOINER_TOKEN_RE.finditer(text, run.start(), k)] if run else []
            for start_ in reversed(starts):  # the last token, then the last two, three
                if _COMMIT_WORD_RE.search(text, start_, k):
                    break
                before = _WORD_BEFORE_RE.search(text, max(line_start, start_ - 24), start_)
                # read in context: "one" after "the" is a pronoun ("the one and only \boxed{6}")
                if before is not None and _value_word_at(text, line_start, before.span(1), k):
                    k, has_or = start_, True
                    break
    q = _skip_back(text, k, " \t\n\r,;.$")
    has_list = any(c in ",;" for c in text[q:k])
    if q == 0:
        return None
    if not (has_or or has_list):
        if "\n" in text[q:start]:
            return None  # a commitment on a later line revises the one before it
        # "\boxed{5} \boxed{6}", "**6** ~ \boxed{5}", "The answer is 6. \quad \boxed{5}": two
        # values side by side on one line, joined by nothing (a list without commas)
        side = _SIDE_BY_SIDE_RE.search(text, max(line_start, k - 40), k) if k > line_start else None
        if side is None or side.start() <= line_start:
            return None
        q = _skip_back(text, side.start(), " \t$")
        if q == line_start:
            return None
        value = _value_ending_at(text, q)
        if value is None or not (_TAIL_VALUE_RE.search(value) or spelled_value(value)):
            return None
        return spelled_value(value) or value  # "**\u2084** \boxed{5}": 4
    value = _value_ending_at(text, q)
    if value is None or not _clean(value):
        return (HEDGED, "another answer offered just before it") if has_or else None
    return _clean(value)


_LAST_TOKEN_RE = re.compile(r"[^\s$*`,;.:?!(){}]+\Z")


def _value_ending_at(text: str, q: int) -> str | None:
    """The value that ends at ``q`` on its line: a box, a math span (its last side), bold, an
    answer tag, or a number; None when none ends there."""
    line_start = text.rfind("\n", 0, q) + 1
    if text[q - 1] == "}":
        marker = _last_marker(text, q)
        box = _box_at(text, marker) if marker >= 0 else None
        if isinstance(box, tuple) and box[2] == q:
            return _clean(text[box[0] : box[1]])
    if text.startswith("$", q):  # q is just before a closing "$" (spaces were skipped)
        open_ = _last_bare_dollar(text, q)
        if open_ >= 0 and q - open_ <= MAX_BOX_CHARS:
            # "$AB = \frac{5}{4} = 1\frac{1}{4}$": the last side is the value offered
            return _clean(text[open_ + 1 : q].rsplit("=", 1)[-1])
    closing = _VALUE_CLOSE_RE.search(text, max(line_start, q - 9), q)
    if closing is not None:
        opener = {"</answer>": "<answer>", "\\)": "\\("}.get(closing.group(), closing.group())
        open_ = text.rfind(opener, max(line_start, q - MAX_BOX_CHARS), closing.start())
        if open_ >= 0:
            inner = text[open_ + len(opener) : closing.start()]
            return _clean(inner.rsplit("=", 1)[-1])
    lo = max(line_start, q - 64)
    numbers = find_numbers(text[lo:q])
    if numbers and lo + numbers[-1].end == q:
        if _UNIT_POWER_RE.search(text, max(0, lo + numbers[-1].start - 8), lo + numbers[-1].start):
            return None  # "cm^2": a unit's power, no value
        return numbers[-1].text
    word = _LAST_TOKEN_RE.search(text, line_start, q)
    if word is not None and _TAIL_VALUE_RE.fullmatch(word.group()):
        return word.group()  # a number word or a numeral: "零", "twelve", "Ⅸ"
    if text[q - 1] in ")}":  # an expression: "\frac{11}{3}", "1*(1+24)"
        lo, _ = _token_around(text, q - 1, q)
        token = text[max(lo, line_start) : q]
        for m in _TAIL_VALUE_RE.finditer(token):
            if not _UNIT_POWER_RE.search(token, max(0, m.start() - 8), m.start()):
                return _clean(token)
    return None


def _before_openings(text: str, start: int) -> int:
    """``start`` moved left over spaces and opening math delimiters (``$``, ``\\(``, ``\\[``),
    however many."""
    k = _skip_back(text, start, " \t\n\r$")
    while True:
        if k >= 2 and text.startswith(("\\(", "\\["), k - 2):
            k = _skip_back(text, k - 2, " \t\n\r$")
            continue
        # an opening bold or code mark ("$6$ **\boxed{5}**"): after a space, not a closing one
        mark = _OPENING_MARK_RE.search(text, max(0, k - 4), k)
        if mark is None:
            return k
        k = _skip_back(text, mark.start(), " \t\n\r$")


_OPENING_MARK_RE = re.compile(r"(?:(?<=\s)|^)(?:\*\*|\*|__|`)\Z")


def _skip_back(text: str, k: int, chars: str) -> int:
    """``k`` moved left over ``chars``, however many (padding cannot outrun it): a few
    steps in Python, then one ``rstrip`` in C for a long run."""
    for _ in range(64):
        if k == 0 or text[k - 1] not in chars:
            return k
        k -= 1
    return len(text[:k].rstrip(chars))


_EARLIER_HASHES_RE = re.compile(r"####[ \t]*([^\n]{1,400})")


def commitments_before(text: str, start: int) -> tuple[str, ...] | tuple[str, str]:
    """For a reader with its own final-answer form (countdown's expression): the values that
    must agree with the commitment starting at ``start`` in the visible ``text`` (the earlier
    commitments of its paragraph and a value offered just before it on its line), or
    ``("hedged", why)`` when what stands just before it is a hedge.

    >>> commitments_before("3+11=14\\n**3+12** & <answer>3+11</answer>", 19)
    ('3+12',)
    """
    problem = _hedge_before(text, start, line_form=True)
    if problem is not None:
        return problem
    alternative = _alternative_before(text, start)
    if isinstance(alternative, tuple):
        return alternative
    # (no labelled lines: a countdown completion's "Target: 16" names the goal, not an answer)
    values = _paragraph_values(text, start, labelled_lines=False)
    return tuple(dict.fromkeys((*values, *([alternative] if alternative else []))))


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


_CALCULATOR_NOTE_RE = re.compile(r"<<[^<>\n]{0,200}>>")


# "The answer is therefore 3": an adverb before a clause's value is no part of it.
_ADVERB_RE = re.compile(r"^(?:(?:therefore|thus|then|hence|so|indeed|clearly|just|simply)\b[\s,]*)+",
                        re.IGNORECASE)


def _paragraph_values(
    text: str, start: int, *, labelled_lines: bool = True, look_back: bool = True
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
    math_open = _open_math_at(text, para_start, start)
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
    from_lines = labelled_values(text, para_start, start) if labelled_lines else []
    if from_lines is None:
        return (*values, "\\ldots")
    values += from_lines
    if look_back:
        values += _bare_paragraph_before(text, para_start, start)
        values += _revised_values(text, para_start, start)
        opening = value_first_values(text, para_start, start)  # "6 is correct." then final
        values += ["\\ldots"] if opening is None else opening
        values += unread_slot_words(text, para_start, start)  # "veintiuno.", "Maybe ishirini."
    return tuple(v for v in dict.fromkeys(values) if v)


# A value on display: bold or math holding one number and nothing else.
_DISPLAYED_VALUE_RE = re.compile(
    r"\*\*[ \t]*([-+]?\d[\d,]*(?:\.\d+)?)[ \t]*\*\*|(?<!\$)\$[ \t]*([-+]?\d[\d,]*(?:\.\d+)?)[ \t]*\$(?!\$)"
)
# A revision said in so many words, in the languages a policy writes ("Wait, actually it's
# **84**", "Edit: $262$", "Doch nicht, 40", "Non, plutôt 40").
_SAID_REVISION_RE = re.compile(
    # at a sentence start only: "It actually has two factors of $5$" is prose, not a revision
    r"(?:^|(?<=[.!?:;])[ \t]+|(?<=\n))[ \t*_>-]*(?:(?:oh|no|hmm+|ah)[,!.]?[ \t]+)?"
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


def _revised_values(text: str, para_start: int, start: int) -> list[str]:
    """The values on display (``**92**``, ``$7$``) that stand before a revision said in words
    in the final answer's paragraph (``**92**. Wait, actually it's **84**.``): the first answer
    of a paragraph that revises itself is still offered (start a new paragraph to revise)."""
    said = None
    para_start = max(para_start, start - READ_BACK_CHARS)
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
_REASONING_RE = re.compile(r"[.!?\u3002](?=\s)|\d\s*[-+*/=\u00d7\u00f7^]|[-+*/=\u00d7\u00f7]\s*\d")
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
    r"[ \t]*(?:[-*_=]{3,}|(?!####)#{1,6}[ \t]+(?![-+]?\d)[^\n]{0,40}|(?:[*_]{0,2}[A-Za-z\u00c0-\u024f]+[*_]{0,2}[ \t]*){1,3}[:.!]?[*_]{0,2})[ \t]*")


def _bare_paragraph_before(text: str, para_start: int, start: int) -> list[str]:
    """The commitments of the paragraph before the final one, when both are bare answers:
    ``\\boxed{6}`` then ``\\boxed{5}``, ``答案是0。`` then ``答案是66。``, ``If n is even:
    \\boxed{6}`` then ``If n is odd: \\boxed{5}`` offer two answers with nothing between them.
    A later paragraph revises an earlier one only by reasoning: when the final paragraph
    says something (a sentence or arithmetic) before its commitment, or the earlier paragraph's
    last line goes on after its commitment, nothing is read back; only that last line's
    commitments are (boxes, tags, ``####`` lines, answer clauses: no labelled lines)."""
    near = max(para_start, start - READ_BACK_CHARS)  # (a longer paragraph reads back: stricter)
    if _REASONING_RE.search(text, near, start) or _REVISION_RE.search(text, near, start):
        return []
    prev_end = len(text[: max(0, para_start - 1)].rstrip())  # one C pass, not a loop per space
    line_start = text.rfind("\n", 0, prev_end) + 1
    for _ in range(2):  # "\boxed{6}\n\nAlso:\n\n\boxed{5}": a filler paragraph between is none
        if not (_FILLER_PARAGRAPH_RE.fullmatch(text, line_start, prev_end)
                and text.startswith("\n", line_start - 1) and text.startswith("\n", line_start - 2)):
            break
        prev_end = len(text[: max(0, line_start - 2)].rstrip())
        line_start = text.rfind("\n", 0, prev_end) + 1
    if prev_end <= line_start or prev_end - line_start > _BARE_PARAGRAPH_CHARS:
        return []
    line = text[line_start:prev_end]
    heading = _TRAILING_HEADING_RE.search(line)
    if heading is not None:  # "$1$.\n**Final Answer**\n\n\boxed{5}": read what the heading follows
        line = line[: heading.start()]
        if not line.strip() and line_start > 1 and text[line_start - 2] != "\n":
            line = text[text.rfind("\n", 0, line_start - 1) + 1 : line_start - 1]
        said = value_first_values(line.rstrip() + "\n", 0, len(line.rstrip()) + 1)
        if said:  # "`9` fits.\n**Final Answer**", "__2__也可以。 **Final Answer**"
            return said
    shown = _LONE_VALUE_LINE_RE.fullmatch(line.rstrip(" \t.!?\u2026"))
    if shown is not None:  # "**1**" alone, then "\boxed{0}": two bare answers
        return [_clean(shown.group("value"))]
    named = _ANSWER_LINE_RE.match(line)
    words_before = re.findall(r"[^\W\d_]+", line[: named.start("value")]) if named is not None else []
    if named is not None and not (words_before and _HEADING_WORD_RE.fullmatch(words_before[-1])):
        # "Răspunsul este 41.", "উত্তর: 82": an answer line of any language ("... Step 1." numbers a step)
        return [_clean(named.group("value"))]
    if _SENTENCE_STOP_RE.search(line.strip().rstrip(".!\u3002$*")):
        return []  # its last line reasons on after a commitment: a later paragraph may revise
    return list(_paragraph_values(line, len(line), labelled_lines=False, look_back=False))
