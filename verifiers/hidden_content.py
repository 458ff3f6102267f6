r"""What does not render in a completion, and the values it holds: the second step of the
normalisation in ``verifiers.answer_text`` (its module doc states the rules).

The rule is an allow-list: HTML's elements and attributes are judged by HTML's own rules,
LaTeX's forms that do not render are listed by what they do, and markdown's by CommonMark.
Each text is scanned once: the openings of the forms it can hold are found by one regex
(compiled only for the forms whose hint it holds), each region is read once, and at most
``MAX_HIDDEN_FORMS`` openings are read one by one (the rest of the text then reads as hidden).
The forms, by name, and their openings are in ``verifiers.hidden_forms``; this module reads
the region each opens and the values it holds.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import NamedTuple

from verifiers.hidden_forms import (
    _HIDING_ATTRIBUTE_RE,
    _MATH_DELIMITER_RE,
    _NAME_END,
    _NOT_RENDERED,
    _VISIBLE_COLORS,
    _VOID_ELEMENTS,
    _hidden_regex,
)
from verifiers.latex_commands import RENDERING_COMMANDS
from verifiers.word_hints import NOUN_CORES, folded, holds_any

__all__ = ["MAX_HIDDEN_FORMS", "holds_value", "without_hidden"]


_BRACE_RE = re.compile(r"\\[{}]|[{}]")


@functools.lru_cache(maxsize=4)
def _group_ends(text: str) -> dict[int, int]:
    """Where each brace group of ``text`` ends, by its opening position, matched in one pass:
    scanning for the close from every opening is quadratic in a text of unclosed groups
    (``\\x{`` repeated 8,000 times took 7 s)."""
    ends: dict[int, int] = {}
    opened: list[int] = []
    for m in _BRACE_RE.finditer(text):
        if len(m.group()) == 1:
            if m.group() == "{":
                opened.append(m.start())
            elif opened:
                ends[opened.pop()] = m.end()
    return ends


def _group_end(text: str, i: int) -> int:
    """End of the brace group opening at ``i`` (after spaces); the rest of the text when it
    never closes; ``i`` when no group opens there."""
    while i < len(text) and text[i] in " \t":
        i += 1
    if not text.startswith("{", i):
        return i
    return _group_ends(text).get(i, len(text))


_OPTION_RE = re.compile(r"\s*\[[^\[\]{}]{0,100}\]")
_ARGUMENT_RE = re.compile(r"\s*(?:\\[A-Za-z@]+|\\.|[^\s{}\\])")


def _arguments_end(text: str, i: int, groups: int) -> int:
    """End of ``groups`` arguments from ``i``: each a brace group or one token, optional
    ``[...]`` arguments between them skipped."""
    for _ in range(groups):
        while (opt := _OPTION_RE.match(text, i)) is not None:
            i = opt.end()
        j = i
        while j < len(text) and text[j] in " \t\n":
            j += 1
        if text.startswith("{", j):
            i = _group_end(text, j)
        elif (arg := _ARGUMENT_RE.match(text, i)) is not None:
            i = arg.end()
    return i


def _enclosing_end(text: str, i: int) -> int:
    """Where ``{\\color{white} ...`` stops hiding: the end of the enclosing group, or of the
    line or math span when no group encloses it."""
    depth = 0
    for m in re.finditer(r"\\[{}$]|[{}\n$]", text[i:]):
        tok = m.group()
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                return i + m.start()
        elif tok in ("\n", "$") and depth <= 0:
            return i + m.start()
    return len(text)


_CONDITIONAL_TOKEN_RE = re.compile(
    r"\\newif\s*\\if[A-Za-z]*|\\ifthenelse(?![A-Za-z])|\\if(?!f(?![A-Za-z]))[A-Za-z]*|\\fi(?![A-Za-z])"
)


def _conditional_end(text: str, end: int) -> int:
    """End of a TeX conditional opened before ``end``: its matching ``\\fi`` (nested ones
    counted), or the rest of the text."""
    if text.find("\\fi", end) < 0:
        return len(text)  # never closed: one pass in C instead of a walk over its tokens
    depth = 1
    for m in _CONDITIONAL_TOKEN_RE.finditer(text, end):
        token = m.group()
        if token.startswith(("\\newif", "\\ifthenelse")):
            continue
        depth += -1 if token.startswith("\\fi") else 1
        if depth == 0:
            return m.end()
    return len(text)


_DEFINITION_NAME_RE = re.compile(r"\s*(?:\{\s*\\[A-Za-z@]+\s*\}|\\[A-Za-z@]+|\\.|\{[^{}]{0,50}\})")
_PARAMETERS_RE = re.compile(r"[^{}\n]{0,30}?(?=\{)")


def _definition_end(text: str, m: re.Match[str]) -> int:
    end = m.end()
    name = _DEFINITION_NAME_RE.match(text, end)
    if name is None:
        return end
    end = name.end()
    command = m.group().lower()
    if command.endswith("def"):  # \def\x#1#2{...}: parameter text, then the body
        params = _PARAMETERS_RE.match(text, end)
        return _group_end(text, end if params is None else params.end())
    return _arguments_end(text, end, 2 if "environment" in command else 1)


# Arguments of the graphic transforms (the last one is the content they draw).
_TRANSFORM_ARGUMENTS = {
    "scalebox": 2, "resizebox": 3, "rotatebox": 2, "reflectbox": 1, "raisebox": 2, "turnbox": 2,
}  # fmt: skip


def _element_ends(text: str, name: str, cache: dict[str, dict[int, int]]) -> dict[int, int]:
    """The end of every element named ``name``, by the position of its start tag: its
    matching end tag (nested elements of the same name counted) or the end of the text;
    one pass per name."""
    ends = cache.get(name)
    if ends is None:
        ends = {}
        pattern = re.compile(rf"<(/?)\s*{re.escape(name)}{_NAME_END}[^<>]{{0,300}}>", re.I)
        open_tags: list[int] = []
        for t in pattern.finditer(text):
            if not t.group(1):
                open_tags.append(t.start())
            elif open_tags:
                ends[open_tags.pop()] = t.end()
        ends.update(dict.fromkeys(open_tags, len(text)))
        cache[name] = ends
    return ends


def _element_end(text: str, m: re.Match[str], name: str,
                 cache: dict[str, dict[int, int]]) -> int:
    """End of the element whose start tag is ``m``."""
    if name.lower() in _VOID_ELEMENTS or m.group().endswith("/>"):
        return m.end()
    return _element_ends(text, name.lower(), cache).get(m.start(), len(text))


_DESTINATION_RE = re.compile(r"[ \t]*\n?[ \t]*(?:<[^<>\n]{0,2000}>|[^\s<][^\s]{0,2000})")
_INLINE_DESTINATION_RE = re.compile(r"[ \t]*\n?[ \t]*(?:<[^<>\n]{0,2000}>|[^\s<()][^\s()]{0,2000})")
_TITLE_OPEN_RE = re.compile(r"[ \t]*\n?[ \t]*([\"'(])")
_TITLE_CLOSE = {'"': '"', "'": "'", "(": ")"}
_REST_OF_LINE_RE = re.compile(r"[ \t]*(?:\n|\Z)")


def _link_tail_end(text: str, i: int, *, inline: bool) -> int | None:
    """End of a link's destination and optional title from ``i`` (markdown), or None when
    what follows is no destination: an inline link ends at ``)``, a reference definition at
    its line's end."""
    dest = (_INLINE_DESTINATION_RE if inline else _DESTINATION_RE).match(text, i)
    if dest is None:
        if not inline or not text.startswith(")", i):
            return None
        return i + 1
    if inline and dest.group().lstrip()[:1] in "-0123456789":
        return None  # "[0, 1](2, 3)" is two intervals, not a link
    end = dest.end()
    title = _TITLE_OPEN_RE.match(text, end)
    if title is not None:
        close = text.find(_TITLE_CLOSE[title.group(1)], title.end(), title.end() + 2_000)
        end = len(text) if close < 0 else close + 1  # an open title hides the rest
    if inline:
        close = re.compile(r"\s*\)").match(text, end)
        return None if close is None else close.end()
    rest = _REST_OF_LINE_RE.match(text, end)
    return None if rest is None else rest.start()


# A group's opening brace right before a "%": TeX reads it as a comment whatever the mode.
_GROUP_OPEN_BEFORE_RE = re.compile(r"(?<!\\)\{[ \t]*\Z")


def _in_math_span(text: str, i: int, spans: list[tuple[int, int]]) -> int | None:
    """End of the math span holding position ``i``, or None."""
    k = bisect.bisect_right(spans, (i, len(text))) - 1
    if k >= 0 and spans[k][0] <= i < spans[k][1]:  # ("$%7$": a span's first character too)
        return spans[k][1]
    return None


def _math_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each ``$..$``, ``$$..$$``, ``\\(..\\)`` and ``\\[..\\]`` span, in
    one pass over the delimiters."""
    spans: list[tuple[int, int]] = []
    opening: tuple[str, int] | None = None
    closers = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}
    for d in _MATH_DELIMITER_RE.finditer(text):
        token = d.group()
        if opening is None:
            if token in closers:
                opening = (token, d.end())
        elif token == closers[opening[0]]:
            spans.append((opening[1], d.start()))
            opening = None
    return spans


class _Context:
    """What the regions of one text share: its math spans and tag positions, each found
    once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tags: dict[str, dict[int, int]] = {}
        self._spans: list[tuple[int, int]] | None = None
        self.style_sheet: str | None = None

    @property
    def spans(self) -> list[tuple[int, int]]:
        if self._spans is None:
            self._spans = _math_spans(self.text)
        return self._spans


class _Region(NamedTuple):
    """A region that does not (surely) render: ``removed`` when it surely does not (it then
    reads as ``shown``), kept when it may; a value from ``hides_from`` on refuses."""

    start: int
    end: int
    removed: bool
    shown: str = " "
    hides_from: int | None = None


def _hidden_region(ctx: _Context, m: re.Match[str]) -> tuple[int, int, bool] | _Region | None:
    """The region that the form ``m`` opens, as ``(start, end, removed)`` or a ``_Region``;
    None when ``m`` opens no such region."""
    text, kind, end = ctx.text, m.lastgroup, m.end()
    if kind == "conditional":
        token = m.group()
        if token.startswith("\\newif"):
            return m.start(), end, True
        if token.startswith("\\ifthenelse"):  # which branch renders depends on its test
            return m.start(), _arguments_end(text, end, 3), True
        return m.start(), _conditional_end(text, end), True
    if kind == "comment_env":
        close = re.compile(r"\\end\s*\{\s*comment\s*\}").search(text, end)
        return m.start(), len(text) if close is None else close.end(), True
    if kind == "definition":
        return m.start(), _definition_end(text, m), True
    if kind == "label":
        return m.start(), _group_end(text, end), True
    if kind == "hook":  # \style{..}{x}, \class{..}{x}: the HTML of a math renderer
        return m.start(), _arguments_end(text, end, 2), True
    if kind == "transform":
        name = m.group()[1:].rstrip("*").lower()
        return m.start(), _arguments_end(text, end, _TRANSFORM_ARGUMENTS[name]), True
    if kind == "html_comment":
        close = text.find("-->", end)
        return m.start(), len(text) if close < 0 else close + 3, True
    if kind == "declaration":  # <?php ?>, <!DOCTYPE>, <![CDATA[..]]>: to the first ">" (HTML)
        close = text.find(">", end)
        return m.start(), len(text) if close < 0 else close + 1, True
    if kind == "element":
        name = m.group("tag") or m.group("tag2")
        lower = name.lower()
        region_end = _element_end(text, m, name, ctx.tags)
        if lower == "style" and ctx.style_sheet is None:
            ctx.style_sheet = text[m.start() : min(region_end, m.start() + 60)]
        removed = lower in _NOT_RENDERED_SET or bool(_HIDING_ATTRIBUTE_RE.search(m.group()))
        return m.start(), region_end, removed
    if kind == "md_definition":  # "[x]: url 'title'" renders nothing (CommonMark)
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start : m.start()].strip():
            return None
        tail = _link_tail_end(text, end, inline=False)
        if tail is None:  # "[x]: url "7" \boxed{5}": a definition to some renderers, text to others
            line_end = text.find("\n", end)
            return m.start(), len(text) if line_end < 0 else line_end, False
        return m.start(), tail, True
    if kind == "md_link":  # [text](url "title"): the text renders, the rest does not
        tail = _link_tail_end(text, end, inline=True)
        if tail is None:
            return None
        if m.group("image"):  # ![alt](src): the alt text does not render either
            return m.start(), tail, True
        link_text = text[m.start() + 1 : end - 2]
        return _Region(m.start(), tail, True, f" {link_text} ", end - 2)
    if kind == "color":
        spec = m.group("spec").strip().lower()
        if m.group("model") is None and spec in _VISIBLE_COLORS:
            return None
        return m.start(), _color_end(text, m), True
    if kind == "phantom":
        return m.start(), _group_end(text, end), True
    if kind == "shift":  # what it moves may cover anything on its line, on either side
        return text.rfind("\n", 0, m.start()) + 1, _enclosing_end(text, end), False
    if kind == "unlisted":
        if m.group().lstrip("\\").rstrip("*") in RENDERING_COMMANDS:
            return None  # (past _MAX_NAMED_UNLISTED names every command is matched)
        return m.start(), _unlisted_arguments_end(text, end), False
    if kind == "math_comment":  # "%" in math mode comments out the rest of its line
        if _in_math_span(text, m.start(), ctx.spans) is None and _GROUP_OPEN_BEFORE_RE.search(
                text, max(0, m.start() - 8), m.start()) is None:
            return None  # (a "%" that opens a group's content, "\boxed{%5}", is no percent sign)
        # the whole rest of the line, the "$" that seemed to close the span included: TeX
        # drops it with the comment ("$1 % $\boxed{5}$" hides the box)
        line_end = text.find("\n", end)
        comment_end = len(text) if line_end < 0 else line_end
        if not text[end:comment_end].strip():
            return None  # "$50%$": nothing is commented out; the sign is left to the reader
        return m.start(), comment_end, True
    # tex_comment
    close = text.find("\n", end)
    return m.start(), len(text) if close < 0 else close, True


_UNLISTED_ARGUMENT_RE = re.compile(r"[ \t]*(?:\[[^\[\]\n]{0,100}\]|\{|\d)")
_MAX_UNLISTED_ARGUMENTS = 9  # TeX's most


def _unlisted_arguments_end(text: str, i: int) -> int:
    """End of the arguments that an unlisted command at ``i`` may take: the brace groups,
    ``[..]`` options and single digits right after it (at most nine)."""
    for _ in range(_MAX_UNLISTED_ARGUMENTS):
        arg = _UNLISTED_ARGUMENT_RE.match(text, i)
        if arg is None:
            break
        last = arg.group()[-1]
        i = _group_end(text, arg.end() - 1) if last == "{" else arg.end()
    return i


def _color_end(text: str, m: re.Match[str]) -> int:
    # \textcolor{c}{..} hides its group; \color{c} the rest of its group
    end = m.end()
    if m.group().lower().startswith(("\\textcolor", "\\colorbox")):
        return _group_end(text, end)
    opening = len(text[: m.start()].rstrip(" \t")) - 1
    if opening >= 0 and text[opening] == "{" and text[opening - 1 : opening] != "\\":
        # "{\color{white} $x = 6$}": the group it opens hides, math spans and lines included
        return _group_end(text, opening)
    return _enclosing_end(text, end)


_NOT_RENDERED_SET = frozenset(_NOT_RENDERED)
MAX_HIDDEN_FORMS = 10_000  # openings of content that does not render, read one by one


def without_hidden(text: str, forms: tuple[str, ...]) -> tuple[str, str | None]:
    """``text`` with what surely does not render replaced by spaces, and the first value
    (a digit, a box, a number word) in content that does not or may not render, or None;
    each region scanned once."""
    pieces: list[str] = []
    hidden_value: str | None = None
    checked_to = 0  # a kept region was scanned to here and held no value
    at = 0
    ctx = _Context(text)
    search = _hidden_regex(forms).search
    m = search(text, at)
    forms_seen = 0
    while m is not None:
        forms_seen += 1
        if forms_seen > MAX_HIDDEN_FORMS:
            # past this many, the rest is read as hidden: no answer hides behind them, and
            # each costs a step in Python
            region: tuple[int, int, bool] | _Region | None = (m.start(), len(text), True)
        else:
            region = _hidden_region(ctx, m)
        if region is None:
            m = search(text, m.end())
            continue
        start, end, removed, shown, hides_from = _Region(*region)
        end = max(end, m.end())
        scan_from = max(start if hides_from is None else hides_from, checked_to)
        if hidden_value is None and scan_from < end and holds_value(text, scan_from, end):
            hidden_value = text[start : min(end, start + 60)]
        if not removed:  # may render: kept, and read on (a form inside it still hides)
            checked_to = max(checked_to, end)
            m = search(text, m.end())
            continue
        pieces += [text[at:start], shown]
        at = end
        if end >= len(text):
            break
        m = search(text, end)
    if hidden_value is None and ctx.style_sheet is not None and holds_value(text, 0, len(text)):
        # a style sheet can hide or show any element: what renders cannot be told
        hidden_value = ctx.style_sheet
    if not pieces:
        return text, hidden_value
    pieces.append(text[at:])
    return "".join(pieces), hidden_value


# A value in hidden content: a digit of any script, a numeral character, a box or an answer
# tag (one regex pass), or an English number word ("<!-- Sixteen -->" hides an answer as much
# as "<!-- 16 -->"; found by substring in C, then checked for word boundaries).
_VALUE_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    "hundred", "thousand", "million", "billion",
)  # fmt: skip
_VALUE_RE = re.compile(r"\d|\\(?:boxed|fbox)|<answer>")
_VALUE_WORD_RES = {w: re.compile(f"{w}(?![a-z])") for w in _VALUE_WORDS}


# A multiple-choice letter: an upper-case A-J standing alone ("\\phantom{x}" is spacing, and
# "A note" or "I think" starts a sentence, not a choice).
_CHOICE_LETTER_RE = re.compile(r"(?<![\w\\])[A-J](?!\w)(?!\s+[a-z])")


def holds_value(text: str, start: int, end: int) -> bool:
    # three passes in C (digits and boxes; other numerals; number words found by substring
    # before any word boundary is checked): one regex for all is several times slower
    if _VALUE_RE.search(text, start, end):
        return True
    region = text[start:end]
    if _CHOICE_LETTER_RE.search(region):
        return True  # "\\boxed{B} <!-- C -->": a hidden choice is a second answer
    if not region.isascii() and any(c.isnumeric() for c in set(region)):
        return True  # a numeral of any script: each distinct character tested once
    low = region.lower()
    if holds_any(folded(region), NOUN_CORES):
        return True  # '<span style="display:none">The answer is \\text{Evelyn}.</span>': a hidden commitment
    for word in _VALUE_WORDS:
        if word in low:
            for m in _VALUE_WORD_RES[word].finditer(low):
                if m.start() == 0 or not low[m.start() - 1].isalpha():
                    return True
    return False


# A tag's attribute values ("<div answer='12'>", "<a href='7'>"): text that never renders as
# text where the tag stands. An attribute named for an answer or for shown text holds one as
# soon as it holds a letter or a digit ("<b final='trece'>"); any other, when it holds a value.
_ATTRIBUTE_TAG_RE = re.compile(r"<[A-Za-z][\w:-]{0,30}(?P<attrs>\s[^<>]+)>")
_ATTRIBUTE_VALUE_RE = re.compile(
    r"(?P<name>[\w:.-]{1,60})\s*=\s*(?:\"(?P<d>[^\"]*)\"|'(?P<s>[^']*)'|(?P<u>[^\s\"'>]+))")
_NAMING_ATTRIBUTE_RE = re.compile(
    r"(?:data-|aria-)?[\w:.-]*(?:answer|final|result|ans|solution|value|label|title|alt|name|content|"
    r"placeholder|summary|text|output|response)[\w:.-]*", re.IGNORECASE)
_LETTER_OR_DIGIT_RE = re.compile(r"[^\W_]")


def attribute_with_value(text: str) -> str | None:
    """The first tag of ``text`` whose attributes hold a value (above), else None."""
    if "<" not in text or "=" not in text:
        return None
    plain: list[str] = []  # (the other attributes' values, joined and tested once: one C pass)
    for tag in _ATTRIBUTE_TAG_RE.finditer(text):
        for v in _ATTRIBUTE_VALUE_RE.finditer(text, tag.start("attrs"), tag.end("attrs")):
            value = v.group("d") or v.group("s") or v.group("u") or ""
            if _NAMING_ATTRIBUTE_RE.fullmatch(v.group("name")) and _LETTER_OR_DIGIT_RE.search(value):
                return tag.group(0)[:80]
            plain.append(value)
    joined = "\n".join(plain)
    if not joined or not holds_value(joined, 0, len(joined)):
        return None
    for tag in _ATTRIBUTE_TAG_RE.finditer(text):
        values = [v.group("d") or v.group("s") or v.group("u") or ""
                  for v in _ATTRIBUTE_VALUE_RE.finditer(text, tag.start("attrs"), tag.end("attrs"))]
        if any(holds_value(x, 0, len(x)) for x in values):
            return tag.group(0)[:80]
    return None
