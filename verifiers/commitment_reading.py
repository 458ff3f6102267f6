r"""How one commitment is read: the final box (the outermost complete ``\boxed{}`` or
``\fbox{}``, found from the end, and unwrapped when a box is its box's whole content:
``_final_box``, ``_unwrap_box``), the value an "answer is" clause gives (``_read_clause``) and
whether the clause commits at all (``_opens_clause``), an ``<answer>`` tag, and the token
around a value (``_token_around``) -- the ``box`` and ``answer_clause`` rules of the grammar
in ``verifiers.math_extract``. ``verifiers.answer_commitments`` reads the rest of the final
paragraph with them. Moved out of ``verifiers.answer_commitments`` unchanged."""

from __future__ import annotations

import bisect
import re

from verifiers.answer_closing import closing_run_on
from verifiers.answer_values import _SENTENCE_END_RE, _clean
from verifiers.exact_numbers import parse_number

MAX_BOX_CHARS = 10_000  # a longer box is no answer (and bounds every brace scan)


_MAX_NESTED_BOXES = 8


_BOX_MARKERS = ("\\boxed", "\\fbox")


_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])")


_BRACE_RE = re.compile(r"\\[{}]|[{}]")


_PAREN_HEDGE_RE = re.compile(
    r"^\(?\s*(?:(?:i\.?e\.?|that\s+is|aka|=)[,:]?\s*)?(?:\$|\\\(|\\boxed|[-+\u2212]?\.?\d)|"
    r"\b(?:or|not|approx\w*|about|roughly|maybe|possibly|perhaps)\b|"
    r"\b(?:and|plus|also)\s+(?:\$|\\\(|[-+\u2212]?\.?\d)",
    re.IGNORECASE,
)


# "The largest $n$ is 34": the value is what follows the last "is".
_IS_RE = re.compile(r"\s(?:is|are|was|equals|be)\s+(?=\S)", re.IGNORECASE)


_WORD_RE = re.compile(r"(?<!\\)\b[A-Za-z]{2,}")


_DELIMITERS = (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"))


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


def _find_close(text: str, delim: str, start: int, stop: int) -> int:
    """``text.find(delim, start, stop)``, skipping a ``$`` written as ``\\$`` (a dollar sign:
    ``$\\$36$`` is one math span, not ``$\\$`` and ``36$``)."""
    i = text.find(delim, start, stop)
    while i > 0 and delim.startswith("$") and text[i - 1] == "\\":
        i = text.find(delim, i + 1, stop)
    return i


# An adverb that only stresses the commitment, between "is" and the value: "The answer is
# definitely 30." (not "also", "still", "about": another answer, or a bound)
_COMMITTING_ADVERB_RE = re.compile(
    r"(?:definitely|clearly|indeed|therefore|thus|hence|exactly|precisely|certainly|simply|"
    r"obviously|just|surely|undoubtedly|actually|still|now|really),?[ \t]+(?=[^\s,])",
    re.IGNORECASE)


_CLAUSE_LEAD_RE = re.compile(r"[ \t*:]*+")


def _read_clause(text: str, start: int) -> tuple[str, int, int] | None:
    """The value an "answer is" clause starting at ``start`` gives: ``(value, value_start,
    value_end)``. A math span or bold right at the start is the value; else the sentence up to
    a remark (``, found in 2 steps``) or parenthesis; "The largest $n$ is 34" gives 34."""
    i = _CLAUSE_LEAD_RE.match(text, start).end()  # type: ignore[union-attr] - always matches (in C: 1 MB of "*")
    adverb = _COMMITTING_ADVERB_RE.match(text, i)
    if adverb is not None:
        i = adverb.end()
    for left, right in _DELIMITERS:
        if text.startswith(left, i):
            close = _find_close(text, right, i + len(left), min(len(text), i + MAX_BOX_CHARS))
            if close > 0 and text.find("\n\n", i, close) < 0:  # (no span runs past its paragraph: "$73\n\n... =$75")
                end = close + len(right)
                while text.startswith("**", end):
                    end += 2
                return text[i:end], i, end
            break
    # bounded: a clause never reads past MAX_BOX_CHARS, so many clauses cost no rescans
    end = _SENTENCE_END_RE.search(text, i, i + MAX_BOX_CHARS)
    sentence_end = min(len(text), i + MAX_BOX_CHARS) if end is None else end.start()
    if text.startswith("...", sentence_end - 2):
        sentence_end += 1  # "5.5...": the ellipsis stays with the decimal it trails
    # The math inside the sentence must not hide a sentence end: skip over spans.
    stop = min(sentence_end, i + MAX_BOX_CHARS)
    closing_tag = text.find("</answer>", i, stop)  # "<answer>The answer is 167.</answer>"
    if closing_tag >= 0:
        stop = closing_tag
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
    run_on = closing_run_on(segment[:cut])
    if run_on is not None:  # "Answer: 3508 I hope it is correct.": the value ends at the run-on
        cut = run_on
    value = segment[:cut]
    matches = list(_IS_RE.finditer(value))
    if matches and parse_number(_clean(value)) is None:
        first = matches[-1].end()
        head = value[: matches[-1].start()]
        if not re.search(r"\d", head) or _WORD_RE.search(head):
            return value[first:], i + first, i + cut
    return value, i, i + cut


def _last_bare_dollar(text: str, before: int) -> int:
    i = text.rfind("$", 0, before)
    while i > 0 and text[i - 1] == "\\":
        i = text.rfind("$", 0, i)
    return i


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


# "our answer is correct", "the answer is as follows": a judgement or a pointer, not an answer.
_NOT_A_VALUE_RE = re.compile(
    r"[\s*:]*+(?:(?:indeed|therefore|thus|then|also|still|clearly|now)\s+)?"
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


_GLUED_LABEL_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _opens_clause(text: str, m: re.Match[str]) -> bool:
    """Whether the "answer is" match ``m`` opens a clause that commits to a value: not part
    of a word or a rate ("points/answer = 48"), not a judgement ("our answer is correct"),
    not a check ("we check our answer: ...")."""
    start = m.start()
    # (a label of a script written without spaces stands glued to the word before: "最终答案:")
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_/") and not _GLUED_LABEL_RE.match(m.group()):
        return False
    if _NOT_A_VALUE_RE.match(text, m.end()):
        return False
    return not _CHECKING_RE.search(text, max(0, start - 40), start)


_ANSWER_TAG_RE = re.compile(r"<answer>([^<]{0,1000})</answer>")
