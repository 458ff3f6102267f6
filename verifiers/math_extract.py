r"""The final answer of a completion: one allow-list grammar, shared by the math, GSM8K and
countdown verifiers (issue 30). A reward pays only what this grammar positively reads.

**Stage 1, normalise** (``verifiers.answer_text.read_visible``, once): the text as it
renders. Look-alikes through NFKC and a confusables table, invisibles out, dashes before a
digit to ``-``, tags and LaTeX spacing and text wrappers to spaces. What does not render is
removed, and a value inside it refuses the completion (``malformed``).

**Stage 2, read** (this module, once), by this grammar::

    completion  := text* final [tail]             (no commitment: closing)
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
                   runs on into final
    before      := on final's line, no value on display (number, number word, bold,
                   math, code, commitment) joined to final by spacing, punctuation,
                   symbols, relations or words that do not commit to it
                   ("$6$ and \boxed{5}", "**6** / \boxed{5}", "The answer is 6. \quad
                   #### 5", "5 or \boxed{6}", "not \boxed{5}"); committing words: "is",
                   "=", "so", "gives", ... (a derivation)
    tail        := ( space | punctuation | closing markup | prose without a value
                   | restatement of final, not denied in its sentence
                   | check "... = final" that holds where its sides are arithmetic )*
                   -- a value is a number, a number word, a box or a math constant;
                      any other value in the tail: ``hedged``. Retractions ("No wait"),
                      doubt ("probably"), approximations ("~", "or so") and a "?" on the
                      answer's sentence are refused too. The rest of the answer's own
                      sentence is read by ``own_sentence`` (below ``hedge_after``); a later
                      sentence that denies the answer refuses (``_later_denial``).
    closing     := "... = X" | X alone on its line
                 | a sentence whose one value X is not denied or bounded
                   ("not", "than", "to", "不是", ...): else ``hedged``

A box glued into a larger expression (``\frac{\boxed{5}}{2}``, ``\boxed{5}^2``) states that
expression (``malformed``); an open box, a box longer than ``MAX_BOX_CHARS``, a ``####`` line
longer than ``MAX_LINE_CHARS`` and a tail longer than ``MAX_TAIL_CHARS`` are refused with
their reason, never silently cut.

**Stage 3, parse and compare** (``verifiers.math._compare``, GSM8K's amount reader,
countdown's expression parser): once, under one deadline for all values.

Every scan is linear: marker positions are collected once (one regex pass) and bisected,
runs are skipped in C, and each region is read once; ``benchmarks/verify_worst_case.py``
times the slowest 1 MB shapes known.

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

import bisect
import re
from dataclasses import dataclass
from fractions import Fraction

from verifiers.answer_text import NUMERIC_CHARS, commented_commitment, read_visible, visible_text
from verifiers.exact_numbers import find_numbers, parse_number, read_words
from verifiers.number_words import read_number_words
from verifiers.types import HEDGED, MALFORMED


def _seen(words: str) -> str:
    """An alternation of ``words`` as the normaliser leaves them: a Cyrillic word is read
    through the confusables table (its "о" reads as a Latin "o"), so it is matched that way."""
    return "|".join(re.escape(read_visible(w)[0]) for w in words.split("|"))


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

MAX_BOX_CHARS = 10_000  # a longer box is no answer (and bounds every brace scan)
MAX_LINE_CHARS = 400  # a longer '####' line is no answer line
MAX_TAIL_CHARS = 50_000  # a longer text after the answer cannot be checked in time: refused
MAX_TEXT_CHARS = 8_000_000  # a longer completion is refused outright (bounds every call)
_MAX_NESTED_BOXES = 8
MAX_COMMITMENTS = 8  # more different answers than this in the final paragraph: hedged

_BOX_MARKERS = ("\\boxed", "\\fbox")
_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])")
_BRACE_RE = re.compile(r"\\[{}]|[{}]")
_ANSWER_IS_RE = re.compile(
    r"\b(?:final\s+answer|answer)\s*(?:(?:is|would\s+be|will\s+be|should\s+be)\b\s*:?|:|=)",
    re.IGNORECASE,
)
_MARKUP_TAG_RE = re.compile(r"</?[A-Za-z][\w.:-]*\s*/?>")
# The end of a sentence: ., ! or ? before whitespace or the end (not a decimal point).
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|\n")

# Between an answer and what follows: spaces (also LaTeX's \, \quad ~), newlines, stray
# separators and delimiters.
_JUNK_RE = re.compile(r"(?:[\s,;:*$~]|\\[,;:! ]|\\q?quad(?![A-Za-z]))*")
_PAREN_HEDGE_RE = re.compile(
    r"^\(?\s*(?:(?:i\.?e\.?|that\s+is|aka|=)[,:]?\s*)?(?:\$|\\\(|\\boxed|[-+\u2212]?\.?\d)|"
    r"\b(?:or|not|approx\w*|about|roughly|maybe|possibly|perhaps)\b|"
    r"\b(?:and|plus|also)\s+(?:\$|\\\(|[-+\u2212]?\.?\d)",
    re.IGNORECASE,
)
# Just before a box (or a final math span): another value and a connector, "5 or \boxed{6}",
# "$5$, \boxed{6}", "not \boxed{5}", "either \boxed{5}".
_HEDGE_BEFORE_RE = re.compile(
    r"(?:\b(?:nor|not|never|vs\.?|versus|than|either|and/or|except|but|exceeds?|exceeding|"
    # a bound on the answer, not a maximum asked for ("Zach can have at most \boxed{2}"): after
    # a copula its subject is the answer itself
    r"(?:is|are|was|were|be|'s)\s+(?:at\s+least|at\s+most|up\s+to|over|under|above|below|"
    r"beyond)|bukan|hindi|"
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
_APPROX_SIGN_BEFORE_RE = re.compile(
    r"(?:~|\u2248|\u223c|\\approx|\\sim|\\simeq|\b(?:at\s+least|at\s+most|more\s+than|"
    r"less\s+than|over|under|up\s+to))\s*(?:\$\s*)?\Z",
    re.IGNORECASE,
)
_APPROX_START_RE = re.compile(
    r"\s*(?:~|\u2248|\u223c|\\approx|\\sim(?![a-z])|\\simeq|(?:about|around|approximately|"
    r"approx\.?|roughly|nearly|almost|circa|close\s+to|at\s+least|at\s+most|more\s+than|"
    r"less\s+than|up\s+to)\b)",
    re.IGNORECASE,
)
_APPROX_AFTER_RE = re.compile(
    # not "\approx" (a relation the comparison checks: "\pi \approx 3.14" is the exact answer
    # with its rounded value, accepted only when that value is right)
    r"\s*(?:\(\s*)?(?<!\\)(?:approx\.?|approximately|roughly|or\s+so|ish|-ish|give\s+or\s+take|"
    r"more\s+or\s+less|at\s+least|at\s+most|or\s+more|or\s+less|or\s+(?:higher|lower|greater|"
    # a bound: "\boxed{7} or higher", "\boxed{7} and up", "\boxed{7} max"
    r"fewer|above|below|over|under)|and\s+(?:up|above|over|below|under)|max|maximum|min|"
    r"minimum|upper\s+bound|lower\s+bound)(?![A-Za-z])",
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
    r"hmm+,?\s+no\b|could\s+be\s+wrong|maybe\s+(?:it'?s\s+|it\s+is\s+)?(?=\$|\\\(|\\boxed|[-+]?\d)|unless\s+(?:it|the\s+\w+|this|that|x)\b|if\s+not,|"
    r"(?:could|might|may|can)\s+(?:also|instead|even)\s+be\b|actually,?\s+(?=\$|\\\(|\\boxed|[-+]?\d)|"
    # other languages: French, German, Spanish, Chinese ("not right", "wrong", "should be")
    r"non,?\s+attend|nein\b|no,?\s+espera|en\s+realidad|\u4e0d\u5bf9|\u9519\u4e86|\u5e94\u8be5\u662f|(?:it|that|this|the\s+answer)\s+(?:should|must)\s+(?:be|have\s+been)\s+"
    r"(?=\$|\\\(|\\boxed|[-+\u2212]?\d))",
    re.IGNORECASE,
)
_RELATION_BEFORE_RE = re.compile(
    r"(?:!=|=\u0338|\\neq?|\\not\s*=|\\[lg]eq?q?|\\[lg]t|\\approx|\\sim|\\simeq|<|(?<![\w\"'/])>"
    r"|[\u2260\u2264\u2265\u2248])[\s${(]*$"
)
# "The largest $n$ is 34": the value is what follows the last "is".
_IS_RE = re.compile(r"\s(?:is|are|was|equals|be)\s+(?=\S)", re.IGNORECASE)
_WORD_RE = re.compile(r"(?<!\\)\b[A-Za-z]{2,}")
# Closing math delimiters and bold right after an answer: "$\boxed{5}$ or 6" offers 6.
_CLOSING_RE = re.compile(r"(?:[ \t]*(?:\$\$?|\\\)|\\\]|\*\*|`))+")


_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))


@dataclass(frozen=True)
class FinalAnswer:
    """The final answer of a completion.

    ``answer`` is the committed answer as written (delimiters and a final period removed), or
    None when there is none; ``source`` names where it was read (``boxed``, ``####``,
    ``answer_is``, ``math_span``, ``last_number``, or ``none``); ``problem`` is
    ``(reason, why)`` when the answer must score 0 whatever it is (``hedged``, ``malformed``);
    ``alternatives`` are values offered next to it ("1\frac{1}{4}, or \boxed{1.25}"): the
    answer counts only if each of them is right too (the same answer written twice).
    """

    answer: str | None
    source: str
    end: int = 0
    problem: tuple[str, str] | None = None
    alternatives: tuple[str, ...] = ()


def _clean(ans: str) -> str:
    ans = _TRAILING_JUNK_RE.sub("", ans.lstrip())  # before a strip() splits "\\ " apart
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"), ("**", "**")):
        if len(ans) >= len(left) + len(right) and ans.startswith(left) and ans.endswith(right):
            ans = ans[len(left) : len(ans) - len(right)].strip()
    ans = ans.strip("*").strip()
    # A sentence-final period (not a decimal point: "5." -> "5", "3.5" stays) and trailing
    # LaTeX spacing and line breaks ("185\\,", "185\\ ", "5~", "5\\\\"); a trailing backslash
    # (a control space whose space was stripped) carries nothing.
    ans = _TRAILING_JUNK_RE.sub("", ans).strip("$").strip()
    # Bold or upright type around the whole answer is dressing: "\mathbf{0}" is 0.
    styled = _STYLED_RE.fullmatch(ans)
    return styled.group(1).strip() if styled else ans


_STYLED_RE = re.compile(r"\\(?:mathbf|textbf|boldsymbol|bm|mathrm|textrm|text)\s*\{([^{}]*)\}")


_TRAILING_JUNK_RE = re.compile(r"(?:\s|[.,;:~]|\\[,;:! .]|\\q?quad(?![A-Za-z])|\\)+\Z")


def end_of_answer_line(line: str) -> str:
    """``line`` with its markup tags read through as spaces: in ``<answer>#### 42</answer>``
    the answer is 42, and in ``#### 18 <b>or 19</b>`` it is ``18 or 19`` (a hedge), never 18.

    >>> end_of_answer_line("42</answer>"), end_of_answer_line("18 <b>or 19</b>")
    ('42', '18 or 19')
    """
    return " ".join(_MARKUP_TAG_RE.sub(" ", line).split())


# --- boxes -------------------------------------------------------------------------------


_markers_of: tuple[str, list[int]] = ("", [])


def _last_marker(text: str, before: int) -> int:
    """Start of the last ``\\boxed``/``\\fbox`` (not ``\\boxedfoo``) before ``before``; -1.
    The marker positions of a text are collected once (one regex pass), then bisected: no
    rescan of the prefix per marker."""
    global _markers_of
    if _markers_of[0] is not text:
        _markers_of = (text, [m.start() for m in _BOX_RE.finditer(text)])
    markers = _markers_of[1]
    i = bisect.bisect_left(markers, before)
    return markers[i - 1] if i else -1


def _box_at(text: str, pos: int) -> tuple[int, int, int] | None | str:
    """``(content_start, content_end, end)`` of the box whose marker starts at ``pos``; a
    string saying why when it is open or too long; None when the marker has no argument."""
    marker = _BOX_RE.match(text, pos)
    i = marker.end() if marker else pos
    while i < len(text) and text[i] in " \t":
        i += 1
    if i < len(text) and text[i] == "{":
        depth = 0
        for m in _BRACE_RE.finditer(text, i, min(len(text), i + MAX_BOX_CHARS)):
            tok = m.group(0)
            if len(tok) == 2:  # \{ or \}: literal braces, part of the content
                continue
            depth += 1 if tok == "{" else -1
            if depth == 0:
                return i + 1, m.start(), m.end()
        if len(text) - i >= MAX_BOX_CHARS:
            return f"a box longer than {MAX_BOX_CHARS} characters"
        return "a \\boxed{ that is never closed"
    # \boxed 7: one token up to whitespace or a math delimiter.
    j = i
    while j < len(text) and j - i < 64 and text[j] not in " \t\n$":
        j += 1
    return (i, j, j) if j > i else None


def _enclosing_box(text: str, pos: int) -> int | None | str:
    """The start of the outermost box whose braces enclose ``pos``; None when none does; a
    string saying why when that cannot be told within the bounds."""
    depth = text.count("{", 0, pos) - text.count("}", 0, pos)
    depth -= text.count("\\{", 0, pos) - text.count("\\}", 0, pos)
    if depth <= 0:
        return None
    lo = max(0, pos - MAX_BOX_CHARS)
    found, outermost = 0, None
    level = 0
    braces = [m for m in _BRACE_RE.finditer(text, lo, pos) if len(m.group(0)) == 1]
    for m in reversed(braces):
        if m.group(0) == "}":
            level += 1
        elif level:
            level -= 1
        else:  # an open brace around pos
            found += 1
            k = m.start()
            head = text[max(0, k - 16) : k].rstrip(" \t")
            if head.endswith(_BOX_MARKERS):
                outermost = _last_marker(text, k)
    if found < depth and _last_marker(text, lo) >= 0:
        return "the final box may sit inside an earlier box that is never closed"
    return outermost


def _final_box(text: str) -> tuple[int, int, int, int] | str | None:
    """``(start, content_start, content_end, end)`` of the last outermost box, a string saying
    why it cannot be read (open, too long), or None when there is no box."""
    pos = _last_marker(text, len(text))
    while pos >= 0:
        box = _box_at(text, pos)
        if box is None:  # "\boxed" with nothing after it: not a box
            pos = _last_marker(text, pos)
            continue
        if isinstance(box, str):
            return box
        outer = _enclosing_box(text, pos)
        if isinstance(outer, str):
            return outer
        if outer is not None:
            pos = outer
            box = _box_at(text, pos)
            if box is None or isinstance(box, str):
                return "the final box sits inside a box that is never closed"
        return (pos, *box)
    return None


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


def _unwrap_box(content: str) -> tuple[str, str | None]:
    """The box's content, with a box that is its whole content unwrapped (``\\boxed{\\boxed{5}}``
    is 5); why it is no single answer when a box sits inside it next to other text."""
    for _ in range(_MAX_NESTED_BOXES):
        content = content.strip()
        if _BOX_RE.search(content) is None:
            return content, None
        box = _final_box(content)
        if box is None or isinstance(box, str) or box[0] != 0 or content[box[3] :].strip():
            return content, "a box inside the answer's box, next to other text"
        content = content[box[1] : box[2]]
    return content, "boxes nested too deep"


# --- what comes after and before an answer ------------------------------------------------


def _first_char(text: str, start: int) -> int:
    """Index of the first character at or after ``start`` that is no space or '#'."""
    while start < len(text) and text[start] in " \t#":
        start += 1
    return start


def _sentence_end(text: str, start: int) -> int:
    m = _SENTENCE_END_RE.search(text, start)
    return len(text) if m is None else m.start()


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
    if len(rest) > MAX_TAIL_CHARS:
        return MALFORMED, f"more than {MAX_TAIL_CHARS} characters after the final answer"
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
    return None


# Words that multiply or divide the value before them (a closed class: multipliers, powers,
# operations, ordinals as denominators): "\\boxed{5} lakh" is 500000, "\\boxed{5} squared" 25.
# Not "dozen" or "score": "how many dozen" is answered "5 dozen", a count in that unit.
_SCALE_AFTER_RE = re.compile(
    r"(?:[²³¹⁰⁴-⁹]|(?:lakhs?|crores?|grand|squared|cubed|doubled|"
    r"tripled|quadrupled|halved|(?:four|fif|six|seven|eigh|nin|ten|eleven|twelf|"
    r"(?:thir|four|fif|six|seven|eigh|nine)teen|(?:twen|thir|for|fif|six|seven|eigh|nine)tie|"
    r"hundred|thousand|million|billion)ths|halves|thirds|quarters)\b)",
    re.IGNORECASE,
)
_MODULUS_RE = re.compile(
    r"[\s$]*(?:\\[pb]?mod(?![A-Za-z])|\\pod(?![A-Za-z])|\(\s*(?:\\mod|mod)(?![A-Za-z]))\s*"
    r"(?:\{\s*[-+]?\d{1,40}\s*\}|[-+]?\d{1,40})\s*\)?"
)
_FIGURE_RE = re.compile(r"\[asy\].*?(?:\[/asy\]|\Z)", re.DOTALL)
_NEGATION_ONLY_RE = re.compile(r"(?:is|are|was|were)\s+not|isn't|aren't|wasn't", re.IGNORECASE)
_DOUBT_RE = re.compile(
    r"\b(?:probably|maybe|perhaps|possibly|likely|i\s+(?:think|guess|believe)|"
    # a negation of the answer in its own sentence: "5 is not the answer", "0이 아닙니다"
    r"(?:is|are|was|were)\s+not|isn't|aren't|wasn't|not\s+(?:the\s+answer|correct|right)|"
    r"nicht|n'est\s+pas|no\s+es)\b|\uc544\ub2c8|\uc544\ub2d9|\u3067\u306f\u306a\u3044|"
    r"\u3058\u3083\u306a\u3044|\u4e0d\u662f|\u4e0d\u5bf9|\u9519",
    re.IGNORECASE,
)
# A value in the tail: a number (any script's digits), an English number word ("one" and "a"
# are left out: prose uses them as pronouns), a CJK numeral, or a math constant.
_NUMBER_WORDS = (
    "zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion|twice|thrice"
)
_TAIL_VALUE_RE = re.compile(
    rf"[-+]?\d+(?:,\d{{3}})*(?:\.\d+)?|\.\d+|\b(?:{_NUMBER_WORDS})\b|"
    # "one" standing as a second item ("5 and one!", "5 A One"), not "one of them", "the one"
    r"\bone\b(?<!\bthe one)(?<!\bthis one)(?<!\bthat one)(?<!\beach one)(?<!\bany one)"
    r"(?<!\bno one)(?<!\bevery one)(?<!\bwhich one)(?<!\bright one)(?<!\bcorrect one)"
    r"(?<!\bonly one)(?<!\bsame one)(?<!\blast one)(?<!\bfirst one)(?<!\bother one)"
    r"(?<!\bno-one)(?![ \t]*(?:(?!(?:or|and|vs)\b)[A-Za-z]{2}|[A-Za-z]'|['-]))|"
    # any numeral character: CJK (\u4e94, \u3007), Roman, vulgar fractions
    rf"[\u4e24{NUMERIC_CHARS}]|"
    r"\\(?:infty|pi|sqrt|frac|dfrac|tfrac)(?![A-Za-z])",
    re.IGNORECASE,
)
# "cm^2", "m^{3}", "x^\circ": the digit of a unit's power is dressing, no value.
_UNIT_POWER_RE = re.compile(r"[A-Za-z][\s$]*\^\s*\{?\s*\Z")


def _other_value(rest: str, answers: tuple[str, ...]) -> str | None:
    """The first value in ``rest`` that is neither a restatement of one of ``answers`` nor
    part of a check whose result is one (a sentence ending ``= answer``), or None. One pass:
    sentences are cut as the values are met."""
    keys: set[str] | None = None  # read only when the tail holds a value (most hold none)
    sentence_start, sentence_stop, checked = -1, -1, False
    for m in _TAIL_VALUE_RE.finditer(rest):
        if keys is None:
            keys = {k for a in answers for k in _value_keys(a)}
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


_NOT_EQUAL_BEFORE_RE = re.compile(r"(?:\\neq?(?![A-Za-z])|\\not\s*=|\u2260|!=|=/=)[\s${]*\Z")
_WRONG_RE = re.compile(r"\b(?:wrong|incorrect|false|not\s+(?:it|so|true))\b", re.IGNORECASE)


def _denied(rest: str, start: int, at: int, stop: int) -> bool:
    """Whether the value at ``rest[at]`` is denied in its sentence ``rest[start:stop]``: a word
    that denies or bounds it just before it, a "not equal" sign, or doubt in the sentence."""
    before = rest[max(start, at - 40) : at]
    if _DENIED_BEFORE_RE.search(before) or _NOT_EQUAL_BEFORE_RE.search(before):
        return True
    return bool(_DOUBT_RE.search(rest, start, stop) or _WRONG_RE.search(rest, start, stop))


def _sentence_start(text: str, pos: int) -> int:
    m = None
    for m in _SENTENCE_END_RE.finditer(text, max(0, pos - 400), pos):  # noqa: B007
        pass
    return max(0, pos - 400) if m is None else m.end()


def _is_check(sentence: str, keys: set[str]) -> bool:
    """Whether ``sentence`` is a check whose result is the answer: its last side, after its
    last ``=``, is the answer alone (``2 + 3 = 5``, ``x = 5``), and every other side that is
    plain arithmetic evaluates to it (``Check: 0 = 5`` equates another value with it)."""
    if "=" not in sentence or not keys:
        return False
    sides = sentence.split("=")
    result = _clean(sides[-1].strip(" \t$*()"))
    values = _TAIL_VALUE_RE.findall(result)
    if len(values) != 1 or keys.isdisjoint(_value_keys(values[0])):
        return False
    for side in sides[-17:-1]:  # the sides next to the result (bounded: a wall of "=")
        value = _arithmetic_side(side)
        if value is not None and keys.isdisjoint(_value_keys(str(value))):
            return False
    return True


# The arithmetic that ends one side of a check: numbers, + - * / and parentheses, after a
# lead of words ("Check: 2 + 3"). A side glued to a letter or a command ("x + 2", "f(3)")
# is no plain arithmetic and is not evaluated.
_ARITH_TAIL_RE = re.compile(r"[-(\s]*\d[\d.\s+\-*/()]*\Z")
_ARITH_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([-+*/()]))")


def _arithmetic_side(side: str) -> Fraction | None:
    """The value of the plain arithmetic that ends ``side`` of a check, or None when it is
    not plain arithmetic (a variable, a function, a power) or cannot be evaluated."""
    side = side[-200:].replace("$", " ").replace("\\left", "").replace("\\right", "")
    side = re.sub(r"\\(?:times|cdot)(?![A-Za-z])|[\u00d7\u00b7]", "*", side)
    side = re.sub(r"\\div(?![A-Za-z])|\u00f7", "/", side)
    side = re.sub(r"\\d?frac\s*\{([^{}]{1,40})\}\s*\{([^{}]{1,40})\}", r"((\1)/(\2))", side)
    side = re.sub(r"(?<=\d)(?:,|\{,\}|\\,)(?=\d{3}(?!\d))", "", side)
    m = _ARITH_TAIL_RE.search(side)
    if m is None:
        return None
    lead = side[: m.start()].rstrip()
    if lead and (lead[-1].isalnum() or lead[-1] in "\\}^_!'"):
        return None
    tokens = []
    pos = m.start()
    while pos < len(side):
        t = _ARITH_TOKEN_RE.match(side, pos)
        if t is None:
            if side[pos:].strip():
                return None
            break
        tokens.append(t.group(1) or t.group(2))
        pos = t.end()
    try:
        value, used = _expression(tokens, 0)
    except (ValueError, ZeroDivisionError, IndexError, RecursionError):
        return None
    return value if used == len(tokens) else None


def _expression(tokens: list[str], i: int) -> tuple[Fraction, int]:
    value, i = _term(tokens, i)
    while i < len(tokens) and tokens[i] in "+-":
        right, j = _term(tokens, i + 1)
        value, i = (value + right if tokens[i] == "+" else value - right), j
    return value, i


def _term(tokens: list[str], i: int) -> tuple[Fraction, int]:
    value, i = _factor(tokens, i)
    while i < len(tokens) and tokens[i] in "*/":
        right, j = _factor(tokens, i + 1)
        value, i = (value * right if tokens[i] == "*" else value / right), j
    return value, i


def _factor(tokens: list[str], i: int) -> tuple[Fraction, int]:
    tok = tokens[i]
    if tok == "-":
        value, i = _factor(tokens, i + 1)
        return -value, i
    if tok == "+":
        return _factor(tokens, i + 1)
    if tok == "(":
        value, i = _expression(tokens, i + 1)
        if i >= len(tokens) or tokens[i] != ")":
            raise ValueError("unbalanced")
        return value, i + 1
    if tok in "*/)":
        raise ValueError(tok)
    return Fraction(tok), i + 1


def _value_keys(value: str) -> set[str]:
    """Keys under which two spellings of one value meet: the canonical text, and the number
    it reads as (``1,000`` and ``1000``; ``five`` and ``5``)."""
    text = _clean(value).replace(" ", "").replace("$", "")
    keys = {text.lower()}
    if len(text) > MAX_LINE_CHARS:
        return keys  # no number is this long
    number = parse_number(text)
    if number is None and text.isalpha():
        words = read_number_words(text)
        number = None if words is None else Fraction(words)
    if number is not None:
        keys.add(str(number))
    return keys


# --- the answer's own sentence, and what later sentences may say about it (issue 30) --------
#
# own_sentence := dressing* [head prose] end        -- from the answer to its sentence's end
#   dressing   := space | , ; : ! | closing markup ($ \) \] ** ` }) | LaTeX spacing
#               | an end-of-proof mark (\blacksquare, \square, QED, a check mark)
#               | a unit sign (%, \%, ^\circ, °) | a congruence's modulus
#   head       := a word of the Latin script that names what the value counts or says of it
#                 ("apples", "different ways", "is our answer", "in total", "more than Susan"),
#                 never one of the closed classes below | "(" a check, a unit or a restatement ")"
#               | a word of another script that is an answer phrase ("です", "입니다")
#   prose      := text in which no condition, negation, bound, approximation, "or" or value
#                 word stands (those classes are closed: a language has few of each)
# Anything else there (a symbol such as "~", "+", "²", "❌"; a word of another script that is
# no answer phrase, "左右"; a closed-class word right after the value) refuses: ``hedged``.
_OWN_END_RE = re.compile(r"[.!?\u3002\uff01\uff1f\u0964\u061f](?=\s|$|\\)|\n")
_DISPLAY_CLOSE_RE = re.compile(
    r"[ \t$.,]*\n[ \t]*(?:\\\]|\$\$|\\end\s*\{[A-Za-z*]{1,20}\}|\\\))"
)
_OWN_DRESSING_RE = re.compile(
    r"(?:\s|[.,;:!]|\$|\\\)|\\\]|\*\*|`|\}|\\[,;:! ]|\\q?quad(?![A-Za-z])|~(?=\s*[A-Za-z])|"
    r"\\(?:blacksquare|square|Box|qed|checkmark|quad|qquad|%)(?![A-Za-z])|%|\^\s*\{?\s*\\circ\s*\}?|"
    r"\\circ(?![A-Za-z])|\\degree(?![A-Za-z])|\u00b0|[\u220e\u25a0\u25a1\u2713\u2714\u2705]|"
    r"\bQ\.?E\.?D\b\.?|\\end\s*\{[A-Za-z*]{1,20}\}|<\|[a-z_]{1,20}\|>|</s>)*"
)
# Right after the value: words that relate it to another value, bound it, condition it,
# scale it or take it back (closed classes, in the languages a policy writes).
# Not "dozen", "score" or "gross": "how many dozen" is answered "5 dozen", a count in that unit.
_CLOSED_HEAD_RE = re.compile(
    r"(?:or|nor|but|if|when|whenever|unless|provided|providing|assuming|supposing|given|"
    r"except|only|not|never|no|nope|than|up|at|max|min|maximum|minimum|tops|plus|minus|times|"
    r"over|under|above|below|besides|instead|rather|vs|versus|either|neither|else|otherwise|"
    r"though|although|however|maybe|perhaps|possibly|probably|likely|approx|approximately|"
    r"about|around|roughly|nearly|almost|circa|ca|some|ish|or\w*|"
    r"grand|lakh|lakhs|crore|crores|bn|mn|mil|mio|mille|"
    r"thousand|million|billion|trillion|hundred|squared|cubed|doubled|halved|tripled|"
    r"half|twice|double|triple|none|nothing|all|few|couple|pair|infinity|undefined|"
    r"wrong|incorrect|false|invalid|guess|estimate|estimated|rounded|"
    r"etwa|ungef\u00e4hr|circa|environ|aprox|aproximadamente|oder|ou|ili|sau|veya|atau|lub|"
    r"falls|wenn|si|cuando|quand|nicht|pas|no|non|nie|bukan|hindi|de\u011fil|kh\u00f4ng)\b",
    re.IGNORECASE,
)
# Anywhere in the answer's sentence after it: a condition, a negation or judgement, a bound,
# an approximation, an alternative ("or"), a value word.
_OWN_PROSE_RE = re.compile(
    r"\b(?:if|when|whenever|unless|provided|providing|assuming|supposing|suppose|only\s+for|"
    r"in\s+(?:the\s+)?case|for\s+(?:positive|negative|even|odd|real|all|some|each|every|any|"
    r"the\s+(?:first|second|other)|[a-z])\b|"
    r"not|never|nope|wrong|incorrect|false|invalid|mistaken|unsure|uncertain|guess\w*|"
    r"estimat\w*|approx\w*|rounded|roughly|bound|at\s+(?:least|most)|"
    r"or|nor|and/or|vs|versus|otherwise|else|and\s+(?:up|above|below|higher|lower|more|less|"
    r"over|under|beyond)|"
    r"si|falls|wenn|cuando|quand|lorsque|nicht|pas|etwa|ungef\u00e4hr|environ|aprox\w*)\b|"
    r"n't\b|\\infty|\u221e|[\u274c\u2717\u2718\u2716]",
    re.IGNORECASE,
)
_LATIN_WORD_RE = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'\-]*")
# Inside a parenthesis after the answer: a check ("since 2 + 3 = 5") or a restatement.
_PAREN_LEAD_RE = re.compile(
    r"\s*(?:(?:since|because|as|check(?:ed)?|verif(?:y|ied|ication)|indeed|i\.?e\.?|that\s+is|"
    r"namely|so)\b[\s:,]*)?",
    re.IGNORECASE,
)


def _own_sentence(rest: str, answers: tuple[str, ...]) -> tuple[str, str] | None:
    """Why the rest of the answer's own sentence is no allow-listed closing (grammar above)."""
    start = 0
    for _ in range(8):  # "\\boxed{5}\n\\] or none.": the display's close is on the next line
        close = _DISPLAY_CLOSE_RE.match(rest, start)
        if close is None:
            break
        start = close.end()
    stop = _OWN_END_RE.search(rest, start)
    own = rest[start : len(rest) if stop is None else stop.start()][:2_000]
    i = _OWN_DRESSING_RE.match(own).end()  # type: ignore[union-attr] - always matches
    dressing = rest[:start] + own[:i]
    if "." in dressing and any(c in dressing for c in ("\n", "\\end", "\\]", "$$")):
        return None  # "\\boxed{5}.\n\\end{align*}Checking, ...": its sentence ended there
    modulus = _MODULUS_RE.match(own, i)
    if modulus is not None:  # "\boxed{3} \pmod{7}": the modulus dresses the answer
        i = _OWN_DRESSING_RE.match(own, modulus.end()).end()  # type: ignore[union-attr]
    if i >= len(own):
        return None
    why = HEDGED, f"the answer's sentence goes on with no allow-listed closing: {own[i:i + 40]!r}"
    body = own[i:]
    if body[0] == "(":
        close = body.find(")")
        inner = body[1:] if close < 0 else body[1:close]
        if not _paren_ok(inner, answers):
            return why
        return None if close < 0 or _prose_ok(body[close + 1 :]) else why
    head = _LATIN_WORD_RE.match(body)
    if head is not None:
        word = head.group(0).rstrip("'-")
        # "5 K", "5 M": a scale letter (lower-case "m" is metres: "160 m of rope")
        if _CLOSED_HEAD_RE.fullmatch(word) or word in ("K", "M", "k", "B", "G", "T"):
            return why
        if len(word) == 1 and body[1:2].isdigit():
            return why  # "\\boxed{3} e3": an exponent
        if word.lower() == "and":  # "and then ..." goes on in prose; "and D", "and up" do not
            nxt = _LATIN_WORD_RE.match(body, _skip_spaces(body, head.end()))
            if nxt is None or not nxt.group(0).islower() or len(nxt.group(0)) < 2:
                return why
            if _CLOSED_HEAD_RE.fullmatch(nxt.group(0)):
                return why
        return None if _prose_ok(body) else why
    if body[0] == "=" and _LONE_VARIABLE_RE.fullmatch(body[1:].replace("$", " ")):
        return None  # "\boxed{17} = x": the answer named by its variable
    if _FOREIGN_WORD_RE.match(body):
        for m in _FOREIGN_WORD_RE.finditer(body):
            if not _ANSWER_PHRASES_RE.fullmatch(m.group(0)):
                return why
        return None if _prose_ok(body) else why
    if body[0] in "-\u2013\u2014" and body[1:2] == " ":  # "\boxed{5} - the number of apples"
        rest_words = body[1:].lstrip(" -\u2013\u2014")
        head = _LATIN_WORD_RE.match(rest_words)
        if head is not None and not _CLOSED_HEAD_RE.fullmatch(head.group(0)) and _prose_ok(body):
            return None
    return why


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _prose_ok(text: str) -> bool:
    """Whether ``text`` holds none of the closed classes that qualify a value (a condition,
    a negation or judgement, a bound, an approximation, "or", a value word), and no word of
    another script that is not an answer phrase."""
    if _OWN_PROSE_RE.search(text):
        return False
    return all(_ANSWER_PHRASES_RE.fullmatch(m.group(0)) for m in _FOREIGN_WORD_RE.finditer(text))


# A clause whose subject is something named other than the answer.
_OTHER_SUBJECT_RE = re.compile(
    r"(?:the\s+)?(?:option|choice|statement|case|part|graph|figure|equation|answer\s+choice)\s+"
    r"\(?[A-Za-z0-9]{1,3}\)?\s+(?:is|are|was|does|do|has)\b[^()]*\Z",
    re.IGNORECASE,
)


def _paren_ok(inner: str, answers: tuple[str, ...]) -> bool:
    """A parenthesis after the answer may hold a unit, a restatement of the answer or a check
    whose sides evaluate to it ("since 2 + 3 = 5"); nothing else ("(or B)", "(rounded)",
    "(assuming the coin is fair)")."""
    inner = inner[_PAREN_LEAD_RE.match(inner).end() :].strip(" \t$.")  # type: ignore[union-attr]
    if not inner:
        return True
    if _OTHER_SUBJECT_RE.match(inner):
        return True  # "(option B is incorrect)": a judgement of something else
    keys = {k for a in answers for k in _value_keys(a)}
    if "=" in inner:
        return _is_check(inner, keys) and _prose_ok(inner)
    if not _prose_ok(inner):
        return False
    if keys and not keys.isdisjoint(_value_keys(inner)):
        return True
    words = inner.split()
    if 0 < len(words) <= 4 and all(_LATIN_WORD_RE.fullmatch(w) for w in words):
        read = read_words(inner)
        return read is not None and read[0] == 1
    return False


# A condition opening the answer's sentence, with nothing but the commitment after its comma:
# "If n is odd, \boxed{5}.", "In case a, #### 94", "当n为奇数时, the answer is 5".
_CONDITION_OPEN_RE = re.compile(
    r"[\s*#>-]*(?:(?:but|and|or)\s+)?(?:only\s+)?(?:(?:if|when|whenever|unless|provided|assuming|suppose|supposing|only\s+if|"
    r"in\s+case|in\s+the\s+case|for|si|falls|wenn|cuando|quand|lorsque|"
    + _seen("\u0435\u0441\u043b\u0438|\u043a\u043e\u0433\u0434\u0430")
    + r")\b|\u5f53|\u5982\u679c|\u5047\u5982|\u82e5|\u3082\u3057)",
    re.IGNORECASE,
)
_BARE_COMMITMENT_RE = re.compile(
    r"[\s*$(\\\[]*(?:(?:then|so|thus|hence|the\s+(?:final\s+)?answer\s+(?:is|would\s+be)|"
    r"(?:final\s+)?answer\s*[:=]|it\s+is|it's|<answer>|####)\s*[:*$(\\\[\s]*)?\Z",
    re.IGNORECASE,
)


def _condition_before(text: str, start: int) -> tuple[str, str] | None:
    """Why the answer starting at ``start`` is stated under a condition that opens its
    sentence ("If n is odd, \\boxed{5}."), or None. A derivation ("If we add them, we get
    \\boxed{5}") commits after its comma and is no condition on the answer."""
    line_start = text.rfind("\n", 0, start) + 1
    sentence_start = max(_sentence_start(text, start), line_start, start - 400)
    head = text[sentence_start:start]
    comma = max(head.rfind(","), head.rfind("\uff0c"), head.rfind("\u3001"))
    if comma < 0 or not _CONDITION_OPEN_RE.match(head):
        return None
    if _BARE_COMMITMENT_RE.match(head, comma + 1):
        return HEDGED, f"the answer is stated under a condition: {head.strip()[:40]!r}"
    return None


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
    r"\b(?:wrong|incorrect|false|invalid|mistaken|bogus|nonsense|a\s+mistake|an\s+error|"
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
    r"(?:\b(?:not|never|no|isn't|aren't|wasn't|nicht|pas|no\s+es|non|nie)\b|n't\b|"
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


# Right after a box, glued to it: a digit, ".5", a power (not "^\circ"), a factorial (not an
# exclamation mark ending a sentence), a prime, a letter: "\boxed{5}0" states 50, "\boxed{5}^2" 25.
_GLUED_AFTER_RE = re.compile(
    r"\d|\.\d|!(?!\s|\Z)|'|_|[A-Za-z]|\{\s*\}\s*[\^_]|\^(?!\s*(?:\{\s*)?(?:\\circ|o\b|\\text\{\s*o\s*\}))"
)
# After a box, on its line: an operator or a separator and another value, "\boxed{5} + 6",
# "\boxed{5} = 6", "\boxed{5} / 6", "\boxed{5} - 1", "\boxed{5} -- or 6".
_OPERATOR_AFTER_RE = re.compile(
    r"[ \t]*(?:[-+*/|&=<>\u2013\u2014\u2212\u2227\u2228]+|"
    r"\\(?:times|cdot|div|mid|[vV]ert|\||parallel|pm|mp|[lg]eq?|[lg]t)"
    r"(?![A-Za-z]))[ \t]*(?:or[ \t/|]+)?(?:\$|\\\(|\\boxed|\\frac|[-+\u2212]?\.?\d)"
)
# Before a box: glued to a digit, a decimal point, a power or fraction sign ("1\boxed{5}",
# "0.\boxed{5}", "2^\boxed{5}"), or after an operator ("-\boxed{5}", "6 - \boxed{5}").
_GLUED_BEFORE_RE = re.compile(r"[\d.^_/]\Z")
# (not "*": "**Answer:** \boxed{5}" is bold)
_OPERATOR_BEFORE_RE = re.compile(r"(?:[-+\u2212]|\\(?:times|cdot|div|pm|mp|sqrt|frac))[ \t]*\Z")
# Commands whose braces may hold the final box: styling, never a value or a visibility.
_WRAPPER_RE = re.compile(
    r"\\(?:text|textbf|mathbf|bm|boldsymbol|mathrm|underline|displaystyle|large|Large|"
    r"(?:text)?color\s*\{(?!\s*white)[^{}]*\})\s*\Z"
)


def _box_in_expression(text: str, start: int, end: int) -> tuple[str, str] | None:
    """Why the box ``text[start:end]`` is one operand of a larger expression (its value is
    not what the completion states), or None."""
    why = MALFORMED, "the final box is part of a larger expression"
    if end < len(text) and _GLUED_AFTER_RE.match(text, end):
        return why
    closing = _CLOSING_RE.match(text, end)
    if _OPERATOR_AFTER_RE.match(text, closing.end() if closing else end):
        return why
    line_start = text.rfind("\n", 0, start) + 1
    head = text[max(line_start, start - 40) : start]
    if _GLUED_BEFORE_RE.search(head):
        return why
    op = _OPERATOR_BEFORE_RE.search(head)
    if op is not None and text[line_start : max(line_start, start - 40) + op.start()].strip():
        return why  # a "-" opening its line is a list bullet, not a minus
    group = _enclosing_group(text, start)
    if group is None or _WRAPPER_RE.search(text, max(0, group - 60), group):
        return None
    only_box = not text[group + 1 : start].strip() and text[end : end + 64].lstrip().startswith("}")
    if not only_box or text[max(0, group - 1) : group] not in ("", " ", "$", "\n", "\t"):
        return why  # "{\boxed{5}}" alone is a plain group; "\frac{\boxed{5}}{2}" is not
    return None


def _enclosing_group(text: str, pos: int) -> int | None:
    """The index of the nearest unmatched ``{`` before ``pos`` (within ``MAX_BOX_CHARS``), or
    None: a box enclosed by braces that are no box's."""
    level = 0
    braces = [
        m for m in _BRACE_RE.finditer(text, max(0, pos - MAX_BOX_CHARS), pos) if len(m.group()) == 1
    ]
    for m in reversed(braces):
        if m.group() == "}":
            level += 1
        elif level:
            level -= 1
        else:
            return m.start()
    return None


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
    if _APPROX_BEFORE_RE.search(before):
        return HEDGED, "an approximate answer"
    return None


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
    rf"(?<=[\d$}})*>.`])[ \t]*(?:(?:{_JOINER_WORD}|{_JOINER_SYMBOLS})[ \t]*){{1,3}}\Z"
)
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
# Words that commit the value after them: what comes before is its derivation, not another answer.
_COMMIT_WORD_RE = re.compile(
    r"\b(?:is|are|was|were|be|been|equals?|gives?|giving|get|gets|got|yields?|yielding|makes?|"
    r"becomes?|so|thus|hence|therefore|answer|final|result|total|obtain|find|have|has|we|which|"
    # (not "then": "**6** then \boxed{5}" is a sequence of two answers, "then y = 4" commits by "=")
    # (not "of": it is Dutch for "or"; "the sum of" commits by "sum")
    r"namely|means|remains?|leaves?|left|in|for|at|on|by|with|all|sum|product)\b",
    re.IGNORECASE,
)
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
        return value if value is not None and _TAIL_VALUE_RE.search(value) else None
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


def _approximate(value: str) -> bool:
    return _APPROX_START_RE.match(value) is not None or _APPROX_AFTER_RE.search(value) is not None


# --- the answer clause and the '####' line --------------------------------------------------


def _find_close(text: str, delim: str, start: int, stop: int) -> int:
    """``text.find(delim, start, stop)``, skipping a ``$`` written as ``\\$`` (a dollar sign:
    ``$\\$36$`` is one math span, not ``$\\$`` and ``36$``)."""
    i = text.find(delim, start, stop)
    while i > 0 and delim.startswith("$") and text[i - 1] == "\\":
        i = text.find(delim, i + 1, stop)
    return i


def _read_clause(text: str, start: int) -> tuple[str, int, int] | None:
    """The value an "answer is" clause starting at ``start`` gives: ``(value, value_start,
    value_end)``. A math span or bold right at the start is the value; else the sentence up to
    a remark (``, found in 2 steps``) or parenthesis; "The largest $n$ is 34" gives 34."""
    i = start
    while i < len(text) and text[i] in " \t*:":
        i += 1
    for left, right in _DELIMITERS:
        if text.startswith(left, i):
            close = _find_close(text, right, i + len(left), min(len(text), i + MAX_BOX_CHARS))
            if close > 0:
                end = close + len(right)
                while text.startswith("**", end):
                    end += 2
                return text[i:end], i, end
            break
    # bounded: a clause never reads past MAX_BOX_CHARS, so many clauses cost no rescans
    end = _SENTENCE_END_RE.search(text, i, i + MAX_BOX_CHARS)
    sentence_end = min(len(text), i + MAX_BOX_CHARS) if end is None else end.start()
    # The math inside the sentence must not hide a sentence end: skip over spans.
    stop = min(sentence_end, i + MAX_BOX_CHARS)
    segment = text[i:stop]
    cut = len(segment)
    depth = 0
    in_math = False
    for k, c in enumerate(segment):
        if c == "$":
            in_math = not in_math
        elif c in "({[":
            depth += 1
        elif c in ")}]":
            depth -= 1
        elif (
            not in_math
            and depth <= 0
            and c in ",;"
            and re.match(
                r"[,;]\s+(?!(?:or|and|nor|maybe|possibly|perhaps|probably|not)\b)[A-Za-z]{2,}",
                segment[k:],
            )
        ):
            cut = k
            break
        if (
            not in_math
            and depth == 1
            and c == "("
            and k
            and segment[k - 1] == " "
            and not _PAREN_HEDGE_RE.search(segment[k : k + 200])
        ):
            cut = k
            break
    value = segment[:cut]
    matches = list(_IS_RE.finditer(value))
    if matches and parse_number(_clean(value)) is None:
        first = matches[-1].end()
        head = value[: matches[-1].start()]
        if not re.search(r"\d", head) or _WORD_RE.search(head):
            return value[first:], i + first, i + cut
    return value, i, i + cut


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
    line = end_of_answer_line(raw)
    return line, start, line_end, line_end


# --- fallbacks: the final math span, the last bare number --------------------------------


def _last_span(text: str, before: int) -> tuple[int, int, int, int] | None:
    """``(start, content_start, content_end, end)`` of the last math span ending by
    ``before``, or None."""
    best: tuple[int, int, int, int] | None = None
    for left, right in (("\\(", "\\)"), ("\\[", "\\]")):
        close = text.rfind(right, 0, before - 1)
        if close > 0:
            open_ = text.rfind(left, max(0, close - MAX_BOX_CHARS), close)
            if open_ >= 0 and (best is None or close > best[2]):
                best = (open_, open_ + 2, close, close + 2)
    # "$": spans pair up from the start, so the last "$" closes one only when the count of
    # bare "$" is even; otherwise one is a dollar sign and the pairing is unknowable.
    bare = text.count("$", 0, before) - text.count("\\$", 0, before)
    if bare >= 2 and bare % 2 == 0:
        close = _last_bare_dollar(text, before)
        if close > 0 and text[close - 1] == "$" and text[close - 2 : close] != "\\$":
            close -= 1  # "$$": find its opening "$$"
            open_ = _last_bare_dollar(text, close)
            open_ = open_ - 1 if open_ > 0 and text[open_ - 1] == "$" else open_
            width = 2
        else:
            open_ = _last_bare_dollar(text, close)
            width = 1
        if 0 <= open_ < close and (best is None or close > best[2]):
            best = (open_, open_ + width, close, close + width)
    return best


def _last_bare_dollar(text: str, before: int) -> int:
    i = text.rfind("$", 0, before)
    while i > 0 and text[i - 1] == "\\":
        i = text.rfind("$", 0, i)
    return i


def _last_digit(text: str) -> int:
    return max(text.rfind(d) for d in "0123456789")


# Glued to these, a digit belongs to a larger expression or a word ("1/2" is not 2).
_GLUE = set("\\{}^_/") | {chr(c) for c in range(ord("A"), ord("Z") + 1)}
_GLUE |= {chr(c) for c in range(ord("a"), ord("z") + 1)}


def _token_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The whitespace-delimited token holding ``text[start:end]``, widened until its braces
    balance (``\\frac{1 + \\sqrt{5}}{2}``), at most 400 characters each way."""
    lo, hi = start, end
    limit_lo, limit_hi = max(0, start - 400), min(len(text), end + 400)
    while lo > limit_lo and not text[lo - 1].isspace():
        lo -= 1
    while hi < limit_hi and not text[hi].isspace():
        hi += 1
    for _ in range(50):
        piece = text[lo:hi]
        opens, closes = piece.count("{"), piece.count("}")
        if opens > closes and hi < limit_hi:
            hi += 1
            while hi < limit_hi and not text[hi].isspace():
                hi += 1
        elif closes > opens and lo > limit_lo:
            lo -= 1
            while lo > limit_lo and not text[lo - 1].isspace():
                lo -= 1
        else:
            break
    return lo, hi


def last_number(text: str) -> tuple[str, int] | None:
    """``(number, end)``: the last number in ``text``, or the whole hedge or list it ends
    ("3 or 4", "6, or possibly 7", "6, 7"), and the index just past it. Only the text around
    the last digit is scanned.

    >>> last_number("It is 5 or maybe 6."), last_number("In 2 days: 1,000 apples")
    (('5 or maybe 6', 18), ('1,000', 16))
    """
    last = _last_digit(text)
    if last < 0:
        return None
    lo = max(0, last - 1_000)
    numbers = find_numbers(text[lo : last + 1 + MAX_LINE_CHARS])
    if not numbers:
        return None
    first = len(numbers) - 1
    while first > 0:
        between = text[lo + numbers[first - 1].end : lo + numbers[first].start]
        if len(between) >= 40 or _SENTENCE_END_RE.search(between):
            break
        if not (_HEDGE_BETWEEN_RE.search(between) or _LIST_BETWEEN_RE.fullmatch(between)):
            break
        first -= 1
    return text[lo + numbers[first].start : lo + numbers[-1].end], lo + numbers[-1].end


_HEDGE_BETWEEN_RE = re.compile(r"\b(?:or|and/or)\b", re.IGNORECASE)
_LIST_BETWEEN_RE = re.compile(r"\s*\$?\s*[,;]\s*\$?\s*")


def is_hedge(answer: str) -> bool:
    """Whether an extracted answer offers alternatives: "5 or 6", "5 and/or 6", "6, 7".

    >>> is_hedge("5 or 6"), is_hedge("6, 7"), is_hedge("1,000"), is_hedge("5")
    (True, True, False, False)
    """
    if _HEDGE_BETWEEN_RE.search(answer):
        return True
    numbers = find_numbers(answer)
    return any(
        _LIST_BETWEEN_RE.fullmatch(answer[a.end : b.start]) for a, b in zip(numbers, numbers[1:])
    )


def _bare_number(text: str) -> FinalAnswer:
    found = last_number(text)
    if found is None:
        return FinalAnswer(None, "none")
    answer, end = found
    start = end - len(answer)
    if answer == text[start:end] and not is_hedge(answer):
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if before in _GLUE or after in _GLUE or (after == "." and text[end + 1 : end + 2] in _GLUE):
            lo, hi = _token_around(text, start, end)
            token = _clean(text[lo:hi].strip("\"'()[]!?"))
            if parse_number(token) is None and (_WORD_RE.search(token) or not token):
                why = f"the last number is part of a word or a larger expression: {token[:40]!r}"
                return FinalAnswer(None, "last_number", hi, (MALFORMED, why))
            answer, start, end = token, lo, hi
    # "x \neq 5" or "$< 5$" ends with 5 but does not state it: keep the relation, so the
    # answer reads as what it is (and scores 0). A ">" closing an HTML tag is no relation.
    relation = _RELATION_BEFORE_RE.search(text, max(0, start - 24), start)
    if relation is not None:
        answer = text[relation.start() : end].replace("$", "").strip()
    problem = (
        _closing_form(text, start)
        or hedge_after(text, end, (answer,))
        or _approx_before(text, start)
    )
    if problem is None and _RANGE_BEFORE_RE.search(text, max(0, start - 60), start):
        problem = HEDGED, "a range of values, not one"
    return FinalAnswer(answer, "last_number", end, problem)


# "17-18 dollars", "17\u201318", "between 17 and 18": the last number closes a range.
_RANGE_BEFORE_RE = re.compile(
    r"(?:\d\s*[-\u2013\u2014]|\bbetween\s+\$?\d[\d,.]*(?:\s+[A-Za-z]+)?\s+and)\s*\$?\s*\Z",
    re.IGNORECASE,
)


def _approx_before(text: str, start: int) -> tuple[str, str] | None:
    before = text[max(0, start - 40) : start]
    if _APPROX_BEFORE_RE.search(before) or _APPROX_SIGN_BEFORE_RE.search(before):
        return HEDGED, "an approximate answer"
    return None


# --- the rule -------------------------------------------------------------------------------


# "our answer is correct", "the answer is as follows": a judgement or a pointer, not an answer.
_NOT_A_VALUE_RE = re.compile(
    r"[\s*:]*(?:(?:indeed|therefore|thus|then|also|still|clearly|now)\s+)?"
    r"(?:correct|right|wrong|incorrect|valid|invalid|confirmed|verified|reasonable|consistent|"
    r"plausible|as\s+follows|below|above|the\s+same|same|clear|obvious|boxed|shown|given|"
    r"in\s+the\s+box|(?:not|n't)\b)\b",
    re.IGNORECASE,
)


# "We may check our answer: 17 \cdot 44 = 748": a check of an answer, not one.
_CHECKING_RE = re.compile(
    r"\b(?:check|verify|confirm|test|validate|compare|recheck|double-check)(?:ing|ed|s)?"
    r"\s+(?:our|my|the|this|that|your)\s+\Z",
    re.IGNORECASE,
)




# Before the final "answer is": "6, or the answer is 5", "The other answer is 5".
_HEDGE_BEFORE_CLAUSE_RE = re.compile(
    r"(?:\b(?:or|nor|alternatively|otherwise|either)\b[\s,]*(?:(?:the|my|our|an?)\s+)?|"
    r"\b(?:other|another|alternative|second)\s+)(?:final\s+)?\Z",
    re.IGNORECASE,
)


_DETERMINERS_BEFORE_RE = re.compile(
    r"(?:(?:\b(?:the|our|my|your|its|this)\b|\*\*|\*|__)\s*)+\Z", re.IGNORECASE
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


def _opens_clause(text: str, m: re.Match[str]) -> bool:
    """Whether the "answer is" match ``m`` opens a clause that commits to a value: not part
    of a word or a rate ("points/answer = 48"), not a judgement ("our answer is correct"),
    not a check ("we check our answer: ...")."""
    start = m.start()
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_/"):
        return False
    if _NOT_A_VALUE_RE.match(text, m.end()):
        return False
    return not _CHECKING_RE.search(text, max(0, start - 40), start)


def _finish(
    text: str,
    answer: str,
    source: str,
    start: int,
    end: int,
    *,
    before_at: int | None,
    earlier: tuple[str, ...] = (),
) -> FinalAnswer:
    """The verdict on ``answer`` read at ``text[start:end]``: its own form, what stands just
    before the commitment that starts at ``before_at`` (None: not checked), the ``earlier``
    commitments of its paragraph, and its tail."""
    answer = _clean(answer)
    if _BOX_RE.match(answer):  # "#### \\boxed{18}": the box is the whole answer
        content, why = _unwrap_box(answer)
        answer = _clean(content) if why is None else answer
    if not answer:
        return FinalAnswer(None, source, end, None)
    problem = None
    if _approximate(answer):
        problem = (HEDGED, "an approximate answer")
    if problem is None and source != "boxed" and "?" in answer:
        problem = (HEDGED, "a question mark in the answer")
    if problem is None and _RETRACT_RE.search(answer):
        problem = (HEDGED, "the answer takes itself back")
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
    alternatives = tuple(dict.fromkeys(a for a in (*earlier, *alternatives) if a != answer))
    if problem is None and len(alternatives) > MAX_COMMITMENTS:
        problem = (HEDGED, f"more than {MAX_COMMITMENTS} different answers in the final paragraph")
    if problem is None:
        problem = hedge_after(text, end, (answer, *alternatives)) or _condition_before(text, start)
    if problem is None and source == "####" and "." in answer:
        problem = _later_denial(answer, ())  # "#### 147. Ignore the above."
    return FinalAnswer(answer, source, end, problem, alternatives)


def final_answer(text: str) -> FinalAnswer:
    r"""The final answer of ``text`` by the rule in the module docstring.

    >>> final_answer("The answer is $5$ (i.e. $6$).").problem
    ('hedged', "another value after the final answer: '$6$).'")
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
    text, hidden = read_visible(text)
    if hidden is not None:
        why = f"a value in content that does not render: {hidden!r}"
        return FinalAnswer(None, "none", 0, (MALFORMED, why))
    commented = commented_commitment(text)
    if commented is not None:
        why = f"a commitment in a TeX comment (shown as text, hidden by LaTeX): {commented!r}"
        return FinalAnswer(None, "none", 0, (MALFORMED, why))
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
    starts = {
        "boxed": -1 if box is None else box[0],
        "####": hashes,
        "answer_is": -1 if answer_is is None else answer_is.start(),
        "answer_tag": -1 if tag is None else tag.start(),
    }
    source = max(starts, key=lambda k: starts[k])
    if starts[source] < 0:
        return _fallback(text)
    if source == "answer_tag":  # "<answer>5</answer>": the tag's whole content is the answer
        earlier = _paragraph_values(text, tag.start())  # type: ignore[union-attr]
        return _finish(
            text, tag.group(1), "answer_tag", tag.start(1), tag.end(), before_at=tag.start(),  # type: ignore[union-attr]
            earlier=earlier,
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
        earlier = _paragraph_values(text, start)
        found = _finish(text, content, "boxed", start, end, before_at=start, earlier=earlier)
        inside = None if found.problem else _box_in_expression(text, start, end)
        if inside is not None:
            return FinalAnswer(found.answer, "boxed", end, inside)
        return found
    if source == "####":
        line = _hashes_line(text, hashes)
        if isinstance(line, str):
            return FinalAnswer(None, "####", len(text), (MALFORMED, line))
        value, _, line_end, _ = line
        earlier = _paragraph_values(text, hashes)
        found = _finish(text, value, "####", hashes, line_end, before_at=hashes, earlier=earlier)
        return found
    clause = _read_clause(text, answer_is.end())  # type: ignore[union-attr]
    if clause is None:
        return _fallback(text)
    lead = text[max(0, answer_is.start() - 60) : answer_is.start()]  # type: ignore[union-attr]
    if _HEDGE_BEFORE_CLAUSE_RE.search(lead):
        found = _finish(text, clause[0], "answer_is", clause[1], clause[2], before_at=None)
        why = "another answer offered just before it"
        return FinalAnswer(found.answer, "answer_is", clause[2], (HEDGED, why))
    value, v_start, v_end = clause
    earlier = _paragraph_values(text, answer_is.start())  # type: ignore[union-attr]
    found = _finish(
        text, value, "answer_is", v_start, v_end, before_at=_clause_start(text, answer_is.start()),  # type: ignore[union-attr]
        earlier=earlier,
    )
    if found.problem is None and found.answer is not None:
        problem = _approx_before(text, v_start)
        if problem is not None:
            return FinalAnswer(found.answer, found.source, found.end, problem)
    return found


_ANSWER_TAG_RE = re.compile(r"<answer>([^<]{0,1000})</answer>")


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
    values = _paragraph_values(text, start)
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


_LABEL_HINTS = ("nswer", "NSWER", "espuesta", "ESPUESTA", "ponse", "PONSE", "ntwort", "NTWORT",
                "esposta", "ESPOSTA", visible_text("тв"), visible_text("ТВ"), "答", "정답",
                "الجواب", "उत्तर")


class _MathDepth:
    """Whether math opened after a position is still open at the end of ``head``: a clause
    whose math holds the final answer ("the answer is $3! \\times 5! = \\boxed{720}$").
    Positions are asked in increasing order; each character is counted once."""

    _TOKENS = ("$", "\\$", "\\(", "\\)", "\\[", "\\]")

    def __init__(self, head: str) -> None:
        self.head, self.at = head, 0
        self.rest = [head.count(t) for t in self._TOKENS]

    def runs_on(self, pos: int) -> bool:
        piece = self.head[self.at : pos]
        self.rest = [r - piece.count(t) for r, t in zip(self.rest, self._TOKENS)]
        self.at = pos
        dollars, escaped, opens, closes, d_opens, d_closes = self.rest
        return (dollars - escaped) % 2 == 1 or opens > closes or d_opens > d_closes


_CALCULATOR_NOTE_RE = re.compile(r"<<[^<>\n]{0,200}>>")
# "The answer is therefore 3": an adverb before a clause's value is no part of it.
_ADVERB_RE = re.compile(r"^(?:(?:therefore|thus|then|hence|so|indeed|clearly|just|simply)\b[\s,]*)+",
                        re.IGNORECASE)


def _paragraph_values(text: str, start: int) -> tuple[str, ...]:
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
            if _TAIL_VALUE_RE.search(value):
                values.append(value)
    # Earlier "answer is" clauses whose math is closed before the final answer starts
    # ("The answer is 6. \quad \boxed{5}") commit to their result, the last side of their
    # value ("the final answer is 15 * 8 = 120 pints" commits to 120 pints). A clause that
    # runs on into the final answer ("the answer is $3! \times 5! = \boxed{720}$") is its
    # derivation, and "points/answer = 48" no clause.
    open_math = _MathDepth(text[para_start : max(para_start, _before_openings(text, start))])
    labelled = any(hint in head for hint in _LABEL_HINTS)  # one C pass each: most hold none
    for count, m in enumerate(_LABEL_RE.finditer(head) if labelled else ()):
        if count > 2 * MAX_COMMITMENTS:
            return (*values, "\\ldots")
        if not _opens_clause(head, m) or open_math.runs_on(m.end()):
            continue
        clause = _read_clause(head, m.end())
        if clause is None:
            continue
        # (a GSM8K calculator note "<<8=8>>" is no side)
        value = _clean(_CALCULATOR_NOTE_RE.sub("", clause[0]).rsplit("=", 1)[-1])
        value = _ADVERB_RE.sub("", value)
        if _TAIL_VALUE_RE.search(value):
            values.append(value)
    return tuple(v for v in dict.fromkeys(values) if v)


# A span that only names a variable ("... the smallest such $n$.") states no answer.
_LONE_VARIABLE_RE = re.compile(r"\s*(?:[A-Za-z]|\\[a-zA-Z]+)(?:_\{?\w{1,3}\}?)?\s*")


def _fallback(text: str) -> FinalAnswer:
    span = _last_span(text, len(text))
    for _ in range(4):
        if span is None or not _LONE_VARIABLE_RE.fullmatch(text, span[1], span[2]):
            break
        span = _last_span(text, span[0])
    if span is not None:
        start, c_start, c_end, end = span
        if _last_digit(text) < end:  # no digit after the span: the span is the answer
            found = _finish(text, text[c_start:c_end], "math_span", start, end, before_at=start)
            form = None if found.problem else _closing_form(text, start)
            return found if form is None else FinalAnswer(found.answer, found.source, end, form)
    return _bare_number(text)


# Before an unboxed value: a word that denies or bounds it ("not 5", "greater than 5", "from 5").
_DENIED_BEFORE_RE = re.compile(
    r"\b(?:not|no|never|nor|neither|except|without|but|than|to|from|between|exceeds?|"
    r"exceeding|over|under|above|below|beyond|besides|instead\s+of|isn't|aren't|wasn't|"
    r"cannot(?:\s+be)?|can't(?:\s+be)?|couldn't(?:\s+be)?|won't(?:\s+be)?|doesn't|don't)"
    r"[\s$*(]*\Z"
    # other languages, without \b (no word boundary inside CJK text)
    r"|(?:\u4e0d\u662f|\u4e0d\u7b49\u4e8e|\u5e76\u975e|\u4e0d|\u975e|\u6ca1\u6709|\u9664\u4e86|"
    r"\u3067\u306f\u306a\u3044|\uc544\ub2c8|\b(?:nicht|kein|pas|ne|non|nie|\u043d\u0435|no\s+es|"
    r"n\u00e3o\s+\u00e9|mais\s+que|m\u00e1s\s+que|plus\s+que|gr\u00f6\u00dfer\s+als|"
    r"non\s+(?:\u00e8|e|est)|nie\s+jest|bukan|hindi|kh\u00f4ng(?:\s+ph\u1ea3i)?|"
    r"mehr\s+als|weniger\s+als|m\u00e1s\s+de|menos\s+de|plus\s+de|moins\s+de|"
    + _seen("\u0431\u043e\u043b\u044c\u0448\u0435|\u043c\u0435\u043d\u044c\u0448\u0435|\u043d\u0435")
    + r")\b"
    r"|\u5927\u4e8e|\u5c0f\u4e8e|\u8d85\u8fc7|\u4e0d\u5230)[\s$*(]*\Z",
    re.IGNORECASE,
)
_EQUALS_BEFORE_RE = re.compile(r"=[\s$*(]*\Z")


def _closing_form(text: str, start: int) -> tuple[str, str] | None:
    """Why the unboxed answer starting at ``start`` fits no allow-listed closing form, or
    None. The forms: ``... = X`` (the result of a check or computation), X alone on its line,
    and a sentence that offers X as its one value, not after a word that denies or bounds it
    (``It is 6, not 5.``, ``The answer is not 5.`` and ``x is greater than 5`` fit none)."""
    head = text[_sentence_start(text, start) : start]
    line_start = text.rfind("\n", 0, start) + 1
    foreign = _foreign_words(text, line_start, start)
    if foreign is not None:
        return HEDGED, f"the closing sentence holds words outside the answer phrases: {foreign!r}"
    if _EQUALS_BEFORE_RE.search(head):
        return _assigned_twice(text[text.rfind("\n\n", 0, start) + 1 : start])
    if not text[line_start:start].strip(" \t*#>$-"):
        return _continued_line(text, line_start)
    questioned = text.rfind("?", line_start, start)
    if questioned >= 0 and _TAIL_VALUE_RE.search(text, line_start, questioned):
        return HEDGED, "a questioned value before the closing one on its line"
    if _DENIED_BEFORE_RE.search(head):
        return HEDGED, "the final value is denied or bounded by the words before it"
    for m in _TAIL_VALUE_RE.finditer(head):
        if not _UNIT_POWER_RE.search(head, max(0, m.start() - 8), m.start()):
            return HEDGED, f"the closing sentence offers more than one value: {m.group(0)!r}"
    return None


# Words of other scripts a closing sentence may hold around its value: "answer", "is",
# "so", "result" in the major languages. Anything else ("ليس", "नहीं") may deny or bound
# the value, and no table of negations in every language is complete: an allow-list is.
_ANSWER_PHRASES = (
    "答案|最终答案|最終答案|答|是|为|為|等于|等於|所以|因此|结果|結果|故|即|"
    "答え|は|です|よって|したがって|"
    "정답|답|은|는|이다|입니다|따라서|그러므로|"
    "الجواب|الإجابة|الاجابة|هو|هي|إذن|اذن|النتيجة|"
    "उत्तर|है|अतः|इसलिए|परिणाम|जवाब|"
    "ответ|равен|равно|это|итак|"
    "απάντηση|η|είναι|"
    "התשובה|היא|"
    "คำตอบ|คือ"
)
_ANSWER_PHRASES_RE = re.compile(f"(?:{_ANSWER_PHRASES})+", re.IGNORECASE)
# A run of letters of a script other than Latin (marks included: Devanagari vowel signs).
_FOREIGN_WORD_RE = re.compile(r"(?:(?![A-Za-z\u00c0-\u024f])[^\W\d_]|[\u0900-\u0dff\u0e00-\u0e7f])+")
_LINE_SENTENCE_END_RE = re.compile(r"[.!?\u3002\u0964\u061f](?=\s|$)|\n")


def _foreign_words(text: str, line_start: int, start: int) -> str | None:
    """The first word of another script on the closing value's line (its sentence, before
    and after the value) that is no answer phrase, or None."""
    stop = _LINE_SENTENCE_END_RE.search(text, start)
    line = text[line_start : len(text) if stop is None else stop.start()]
    if line.isascii():
        return None
    for m in _FOREIGN_WORD_RE.finditer(line):
        if not _ANSWER_PHRASES_RE.fullmatch(m.group(0)):
            return m.group(0)
    return None


# The variable just before the final "=" of a closing line ("... so x = 5").
_LAST_VARIABLE_RE = re.compile(r"(?<![\w\\])([A-Za-z][A-Za-z]{0,20}(?:_\{?\w{1,3}\}?)?)\s*=[\s$*(]*\Z")
# The side just before the final "=" when it is one bare value: "12.0 = 232,131".
_VALUE_SIDE_RE = re.compile(
    r"(?:^|[=\n]|[.!?;,]\s)[\s$*(]*\{?\s*(?:\\(?:mathbf|textbf|text)\s*\{)?\s*"
    r"(?P<value>[-+]?\d[\d,{}]*(?:\.\d+)?)\s*\}?\s*\}?[\s$)]*=[\s$*(]*\Z"
)


def _assigned_twice(paragraph: str) -> tuple[str, str] | None:
    """``x = 1% x = 0``, ``x = \\mathbf{-25}`` / ``% x = 29/11``: the closing line, or a line
    before it in its paragraph, gives the final variable a single value before the final
    one. Two values on offer, whatever joins them (a derivation ``x = 2 + 3`` is no value)."""
    side = _VALUE_SIDE_RE.search(paragraph, max(0, len(paragraph) - 80))
    if side is not None:
        return HEDGED, f"a value equated to the answer: {side.group('value')!r}"
    last = _LAST_VARIABLE_RE.search(paragraph)
    if last is None:
        return None
    line_start = paragraph.rfind("\n", 0, last.start()) + 1
    for m in re.finditer(
        rf"(?<![\w\\]){re.escape(last.group(1))}\s*=\s*(?P<value>[^=\n]*)", paragraph[: last.start()]
    ):
        value = m.group("value").strip(" \t$%.,;")
        if not value or not _TAIL_VALUE_RE.search(value) and "\\" not in value:
            continue
        if m.start() >= line_start or not re.search(r"(?<=[\w}])\s*[-+*/^]", value):
            return HEDGED, f"the closing lines assign {last.group(1)} twice"
    return None


def _continued_line(text: str, line_start: int) -> tuple[str, str] | None:
    """A value alone on its line after a line that runs on into it (no sentence end:
    ``1000% So we get`` / ``0``) closes that line's sentence: a value earlier in the
    sentence is a second one on offer."""
    if line_start < 2:
        return None
    prev_start = text.rfind("\n", 0, line_start - 1) + 1
    prev = text[prev_start : line_start - 1].rstrip(" \t*$")
    if not prev or not (prev[-1].isalpha() or prev[-1] == ":"):
        return None
    ends = list(_SENTENCE_END_RE.finditer(prev))
    sentence = prev[ends[-1].end() :] if ends else prev
    if sentence.lstrip().startswith("%"):
        # a '%' after no number is no percent sign: it comments out or continues what stands
        # before it ("2908. % So we get" / "30"), so that sentence runs on too
        sentence = prev[ends[-2].end() :] if len(ends) > 1 else prev
    for m in _TAIL_VALUE_RE.finditer(sentence):
        if not _UNIT_POWER_RE.search(sentence, max(0, m.start() - 8), m.start()):
            return HEDGED, f"the closing sentence offers more than one value: {m.group(0)!r}"
    return None


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
