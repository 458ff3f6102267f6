r"""What may stand ``before`` final on its line (``_hedge_before``, ``_alternative_before``)
-- the ``before`` rule of the grammar in ``verifiers.math_extract`` (issue 30) -- and
``commitments_before`` for readers with their own final-answer form (countdown). The earlier
commitments of the final paragraph (the ``paragraph`` rule) are read by
``verifiers.paragraph_commitments``; how one commitment is read (boxes, ``<answer>`` tags,
"answer is" clauses: the ``box`` and ``answer_clause`` rules) is in
``verifiers.commitment_reading``.

Round 3 (h16): a bound or an approximation sign right before the commitment refuses it
(``_hedge_before``)."""

from __future__ import annotations

import re

from verifiers.answer_values import (
    _TAIL_VALUE_RE,
    _UNIT_POWER_RE,
    _arithmetic_side,
    _clean,
    _seen,
    _sentence_start,
)
from verifiers.commitment_reading import (
    MAX_BOX_CHARS,
    _box_at,
    _last_bare_dollar,
    _last_marker,
    _token_around,
)
from verifiers.earlier_answers import standing_answers
from verifiers.exact_numbers import find_numbers, format_fraction
from verifiers.labelled_lines import (
    _ANSWER_NOUN,
    _COMMIT_WORD_RE,
)
from verifiers.paragraph_commitments import _paragraph_values, roman_token
from verifiers.qualifier_words import qualified_before
from verifiers.spelled_numbers import spelled_value
from verifiers.types import HEDGED

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
# word, a contraction, a colon, an "=" or an opening delimiter ("So it's \u2248 $\boxed{5}$", "The
# answer is $\approx \boxed{5}$", "$13 \cdot 130 - 5 = \approx \boxed{850}$"), it qualifies the answer; after an expression
# ("$\sqrt{24} \approx \boxed{4.9}$") it derives it. (A "~" glued to a word is LaTeX's tie.)
_APPROX_SIGN_BEFORE_RE = re.compile(
    r"(?:^|[:(\[{=]|\$|\\\(|\\\[|(?<![\\A-Za-z])[^\W\d_]{2,}|'s|\u2019s)[ \t]*"
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


# What makes a closing "one" a pronoun: a determiner or an adjective right before it ("the right
# one", "this one", "the last one").
_PRONOUN_ONE_LEAD_RE = re.compile(
    r"\b(?i:the|this|that|which|each|every|any|no|another|right|correct|wrong|last|first|only|other|same|best|"
    r"final|new|old|good|bad|true|false|second|next|previous)[ \t*_]+\Z")
# Nothing but spacing, punctuation and those symbols: two values side by side.
_SIDE_BY_SIDE_RE = re.compile(rf"(?:[ \t.,;!?\u3001\u3002]|{_JOINER_SYMBOLS})*\Z")




# The end of a value just before a joiner: a closing box brace, math delimiter, bold, answer tag.
_VALUE_CLOSE_RE = re.compile(r"(?:\*\*|</answer>|\\\)|\$|`|\*)\Z")


# An answer's label right before the commitment, after a space or markup ("Ответ: ", "**Final
# answer:** "): a label names the answer, it does not derive it from what stands before.
_LABEL_BEFORE_RE = re.compile(
    rf"(?<=[\s*_>/|])[*_]*(?:final[ \t]+)?{_ANSWER_NOUN}[^\W\d_]{{0,4}}[ \t*_]*[:\uff1a][ \t*_]*\Z", re.IGNORECASE)


_VALUE_END_RE = re.compile(r"[\d$})\]][ \t*_/|.]*\Z")
_PART_MARKER_RE = re.compile(
    r"[ \t>*_#]*(?:(?:step|part|case|question|problem|q)[ \t]*\(?\d{1,2}[.):]?|\(?\d{1,2}[.):])[ \t*_]*", re.IGNORECASE)


def _alternative_before(text: str, start: int) -> str | tuple[str, str] | None:
    r"""The value offered just before the commitment starting at ``start``, on its line, with
    nothing that commits to either between them ("A, or \boxed{B}", "$6$ and \boxed{5}",
    "**6** / <answer>5</answer>", "The answer is 6. ~ \boxed{5}", "$6$ \qquad #### 5"): A as
    text, or why the text there is a hedge that cannot be read; None when no value is
    offered there (a derivation "... = \boxed{5}", "so \boxed{5}", or a new line)."""
    k = _before_openings(text, start)
    line_start = text.rfind("\n", 0, start) + 1
    for _ in range(3):  # "5 Answer: \boxed{3}": what stands before the label stands before the answer
        label = _LABEL_BEFORE_RE.search(text, max(line_start, k - 40), k)
        if (label is None or label.start() <= line_start or _PART_MARKER_RE.fullmatch(text, line_start, label.start())
                or not _VALUE_END_RE.search(text, max(line_start, label.start() - 8), label.start())):
            break  # (not a part's number: "Step 2. Answer: 3"; not the label's own words: "Endg\u00fcltige Antwort:")
        k = _before_openings(text, label.start())
    has_or = text[max(0, k - 2) : k].lower() == "or" and not text[k - 3 : k - 2].isalpha()
    derived = _derived_value(text, line_start, k)
    if derived is not None:
        return derived
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
        if _LIST_ITEM_MARKER_RE.fullmatch(text, line_start, k) and text[start:start + 1].isupper():
            return None  # "1. The answer is 5", "1. Answer: 12": a list item's number
        # "\boxed{5} \boxed{6}", "**6** ~ \boxed{5}", "The answer is 6. \quad \boxed{5}": two
        # values side by side on one line, joined by nothing (a list without commas)
        side = _SIDE_BY_SIDE_RE.search(text, max(line_start, k - 40), k) if k > line_start else None
        if side is None or side.start() <= line_start:
            return None
        q = _skip_back(text, side.start(), " \t$")
        if q == line_start:
            return None
        value = _value_ending_at(text, q)
        if value is None or not (_TAIL_VALUE_RE.search(value) or spelled_value(value) or roman_token(value)):
            return None
        if value.lower() == "one" and _PRONOUN_ONE_LEAD_RE.search(text, max(line_start, q - 40), q - len(value)):
            return None  # "This is the right one. The answer is 424.": a pronoun, no value
        return spelled_value(value) or roman_token(value) or value  # "**\u2084** \boxed{5}": 4; "VII. \boxed{5}": 7
    value = _value_ending_at(text, q)
    if value is None or not _clean(value):
        return (HEDGED, "another answer offered just before it") if has_or else None
    return _clean(value)


# A derivation right before the commitment: "2 + 3 = \boxed{5}", "**7** \u2248 #### 5".
_DERIVES_RE = re.compile(r"(?P<relation>=|\u2248|\\approx(?![A-Za-z]))[ \t]*(?:\*\*|__)?[ \t]*\Z")
# The side: plain arithmetic that runs back from the relation (digits, operators, brackets).
_ARITHMETIC_RUN_RE = re.compile(
    # (possessive, and "**" is two of the class's "*": a run of stars splits one way, h50)
    r"(?:[-+*/()\d.,\s\u00d7\u00f7\u00b7\u2212$]++|\\[()]|\\(?:times|cdot|div)(?![A-Za-z]))++\Z")
# What may stand before the side: a line's start, markup, an "=" or a colon, or a word that
# introduces a result ("The total is 4 * 5 = ..."); "20% of 50 = 10" is no side of "50".
_SIDE_LEAD_RE = re.compile(
    r"(?:^|\*\*|__|[=:(\n>]|\\[(\[]|\b(?i:is|are|was|were|equals?|gives?|gets?|get|so|thus|then|hence|total|sum|"
    r"product|answer|result|compute|calculate))[ \t]*\Z")


def _derived_value(text: str, line_start: int, k: int) -> str | None:
    """The value of the side that a relation right before the commitment equates with it,
    when that side is plain arithmetic or a lone number (``2 + 3 = \\boxed{6}`` offers 5,
    ``**7** = #### 5`` offers 7): the comparator must find it equal to the gold as it does
    the answer. ``\u2248`` equates whole numbers only (``22/7 \u2248 3.14`` rounds). In a chain
    each side is read, right to left, while the sides are plain (``$3 = 4 = \\boxed{4}$`` offers
    3 too); the first that differs from the one after it is returned."""
    relation = _DERIVES_RE.search(text, max(line_start, k - 8), k)
    found = None
    for _ in range(8):  # (a chain of more sides is no one derivation)
        if relation is None:
            return found
        side = _side_before(text, line_start, relation)
        if side is None:
            return found
        value, start = side
        if found is not None and value != found:
            return value  # ("$3 = 4 = \\boxed{4}$": 3)
        found = value
        relation = _DERIVES_RE.search(text, max(line_start, start - 8), start)
    return found


def _side_before(text: str, line_start: int, relation: re.Match[str]) -> tuple[str, int] | None:
    """The value of the plain side that ends at ``relation`` and where it starts, or None."""
    lo = max(line_start, relation.start() - 200)
    run = _ARITHMETIC_RUN_RE.search(text, lo, relation.start())
    if run is None:
        return None
    side = run.group().replace("**", " ").replace("$", " ").replace("\\(", " ").replace("\\)", " ").strip(" \t\n,.")
    body = run.group().lstrip(" \t\n,.*$")
    body = body[2:].lstrip(" \t$") if body.startswith("\\(") else body  # "\\(1 + 1\\) \u2248"
    start = relation.start() - len(body)
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_}^\\'"):
        return None  # "r_1r_2r_3 = ...", "2y_2 = ...": a term of a variable, no side of numbers
    # (a side that opens its math span is that span's left side: "they have $79 = \\boxed{59}$")
    opened = text[line_start:start].rstrip(" \t")
    led = (not text[line_start:start].strip(" \t*_$>") or (opened.endswith("$") and not opened.endswith("\\$"))
           or _SIDE_LEAD_RE.search(text, max(line_start, start - 40), start))
    if not any(c.isdigit() for c in side) or not led:
        return None
    value = _arithmetic_side(side)
    if value is None or (relation.group("relation") != "=" and (value.denominator != 1 or "." in side)):
        return None  # "22/7 \u2248 3.14" rounds; "**7** \u2248 #### 5" equates two whole numbers
    return format_fraction(value), start


# A list item's number alone before the commitment on its line ("1. ", "> 2) ").
_LIST_ITEM_MARKER_RE = re.compile(r"[ \t>]*\d{1,2}[.)][ \t]*")


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
        # (a span never crosses a paragraph: "$x = 25$. ... 3175.\n\n答えは$3175$" pairs no "$")
        if open_ >= 0 and q - open_ <= MAX_BOX_CHARS and "\n\n" not in text[open_:q]:
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
    if word is not None and (_TAIL_VALUE_RE.fullmatch(word.group()) or roman_token(word.group())):
        return word.group()  # a number word or a numeral: "零", "twelve", "Ⅸ", "iv"
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
    values = (*_paragraph_values(text, start, labelled_lines=False), *standing_answers(text, start, labelled=False))
    return tuple(dict.fromkeys((*values, *([alternative] if alternative else []))))


