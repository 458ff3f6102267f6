r"""Format rewards: tag structure, a regex, length limits, and pulling answers out of tags.

>>> from verifiers.format import extract_tag, format_check, format_reward
>>> text = "<think>7*6 is 42</think>\n<answer>42</answer>"
>>> format_reward(text)                                   # default tags: think, answer
1.0
>>> extract_tag(text, "answer")
'42'
>>> format_check("<answer>42</answer><think>hm</think>").reason
'tag_order: <answer> comes before <think>'
>>> format_reward("The answer is 42.", tags=(), pattern=r"answer is \d+")
1.0

Rules, checked in this order; the first one broken gives reward 0 and names itself in the
reason (``"<rule>: <explanation>"``, the rule is also ``details["rule"]``):

- ``not_a_string``: the completion is not a ``str``.
- ``too_long`` / ``too_short``: ``len(completion)`` against ``max_chars`` / ``min_chars``.
- ``markup_flood``: more than ``MAX_ANGLE_BRACKETS`` (10,000) ``<`` or ``MAX_BACKSLASHES``
  (20,000) ``\`` in the completion: a flood of markup, not an answer (reading it would cost
  a tag or command parse at each one).
- ``missing_tag``, ``unclosed_tag``, ``duplicate_tag``: each tag of ``tags`` must open and close
  exactly once (``<name>`` ... ``</name>``, no attributes, case-sensitive). A tag mentioned
  inside another tag's text counts: the parse would be ambiguous.
- ``hidden_tag``: no tag stands inside an HTML comment, which never renders (an unclosed
  ``<!--`` hides everything after it).
- ``tag_order`` / ``nested_tag``: the tags follow one another in the order given, none inside
  another.
- ``empty_tag``: every tag holds some visible text, not only a placeholder for one (marks
  alone, ``...``, ``?``, ``%``, empty quotes or brackets, or a word that stands for no answer: ``TODO``, ``N/A``,
  ``None``, ``null``, ``I don't know``, ``[answer]``, ``your answer here``).
- ``text_outside_tags``: only whitespace before, between and after the tags, unless
  ``allow_text_outside=True``. A code fence (```` ``` ```` or ``~~~``) is never whitespace:
  it shows the tags as code. Nor is text that does not render: a comment, processing
  instruction, CDATA section or declaration (``<!DOCTYPE ...>``) that holds a value (a digit, a number word, an answer noun, a
  choice letter: ``<!-- 41 -->``; ``<!-- a note -->`` is whitespace), an attribute value that
  does (``<img alt="41">``, ``<a href='7'></a>``), markdown alt text or a reference definition
  that does (``![7](x.png)``, ``[//]: # (7)``), an element that never renders, ``\iffalse``.
  Nor is what shows a mark: a dot, a dash or a backslash, a heading mark, a bullet, a quote
  or a thematic break (``#``, ``-``, ``>``, ``---``) on a line of its own.

"Whitespace" here includes everything that shows nothing, told by Unicode category, not by a
list: format characters (Cf: zero-width space U+200B, joiners, BOM, bidi marks, tag
characters), combining marks with no base (U+034F, the variation selectors U+FE0F and
U+180B), controls, unassigned code points, the Hangul fillers and the blank braille pattern
(by their Unicode names), and markup that renders as nothing: ``&nbsp;`` and other entities
of such characters, empty comments (``<!-- -->``) and bare tags (``<br>``), and markdown/LaTeX that
draws nothing (``$$``, ``**``, backticks, ``{}``, ``\,``, ``\quad``, ``\phantom{x}``, an
empty ``\text{}``). Otherwise a policy learns
that ``<answer>\u200b</answer>`` passes the emptiness rule.
- ``pattern_mismatch``: ``re.search(pattern, completion)`` found nothing (anchor with
  ``\A``/``\Z`` to constrain the whole text; pass a compiled pattern to choose flags).

A passing completion gets reward 1.0, reason ``"correct"``, and ``pred`` = the text of the last
tag (the answer, for the other verifiers). ``answer`` is accepted so that every family has the
same signature, and ignored: format says nothing about correctness.

Everything here is plain string scanning (one regex pass over the text for the tags): cheap
enough to run in-process. A user ``pattern`` can backtrack catastrophically; the rubric's hard
deadline is what bounds that.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from verifiers.answer_text import markup_flood, visible_text
from verifiers.hidden_content import attribute_with_value, holds_value
from verifiers.types import CORRECT, Verdict, not_a_string

__all__ = ["DEFAULT_TAGS", "extract_tag", "format_check", "format_reward"]

DEFAULT_TAGS: tuple[str, ...] = ("think", "answer")

_TAG_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")


def _check_tag_name(tag: Any, argument: str) -> str:
    if not isinstance(tag, str) or not _TAG_NAME.fullmatch(tag):
        raise ValueError(
            f"{argument} must hold tag names like 'answer' (letters, digits, _ . : -; no "
            f"angle brackets), got {tag!r}"
        )
    return tag


def _normalise_tags(tags: str | Sequence[str] | None) -> tuple[str, ...]:
    if tags is None:
        return ()
    if isinstance(tags, str):  # one tag name, or names joined by commas as the CLI takes
        tags = tuple(t.strip() for t in tags.split(",")) if "," in tags else (tags,)
    if not isinstance(tags, Sequence):
        raise TypeError(f"tags must be a sequence of tag names, got {type(tags).__name__}")
    names = tuple(_check_tag_name(t, "tags") for t in tags)
    if len(set(names)) != len(names):
        raise ValueError(f"tags must not repeat a name, got {names!r}")
    return names


# What shows nothing, by Unicode category rather than by a list of code points: format
# characters (Cf: zero-width space and joiners, BOM, bidi marks, soft hyphen, tag characters),
# combining marks with nothing to combine with (Mn: U+034F, variation selectors U+FE0F,
# Mongolian U+180B), controls (Cc), separators (Z*), surrogates (Cs) and unassigned code
# points (Cn, where the default-ignorable ranges lie). Letters that render as nothing are
# recognised by their Unicode name: the Hangul fillers, the blank braille pattern and the
# musical null notehead.
_BLANK_CATEGORIES = frozenset({"Cf", "Cc", "Cs", "Cn", "Mn", "Zs", "Zl", "Zp"})
# ...but a spacing mark (Mc: "\u0903") takes room, and the prepended concatenation marks (Cf:
# the Arabic end of ayah "\u06dd", the number sign "\u0600") draw a sign: text (h52); so does an
# enclosing mark (Me: a circle "\u20dd", a keycap "\u20e3", "\u0489"), drawn round nothing (h52).
_SHOWN_FORMAT_CHARS = frozenset("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2\U000110bd\U000110cd")
_BLANK_NAME_WORDS = ("FILLER", "BLANK", "NULL NOTEHEAD")  # U+1D159 draws no glyph
# Markup that shows nothing either: an HTML comment, a bare tag (<br>, <span></span>); and
# entities are decoded first (&nbsp;, &#8203;, &zwj;).
_BLANK_ENTITIES = ("&nbsp;", "&#160;", "&#xa0;", "&ensp;", "&emsp;", "&thinsp;", "&zwj;",
                   "&zwnj;", "&shy;", "&#8203;", "&#x200b;", "&#x200B;")  # fmt: skip
_FENCE_RE = re.compile(r"```|~~~")
_MARKUP_TAG_RE = re.compile(r"</?[A-Za-z][\w:-]{0,30}(?:\s[^<>]{0,200})?/?>")


@functools.lru_cache(maxsize=4096)
def _is_blank_char(c: str) -> bool:
    if c in _SHOWN_FORMAT_CHARS:
        return False
    if c.isspace() or unicodedata.category(c) in _BLANK_CATEGORIES:
        return True
    name = unicodedata.name(c, "")
    return any(word in name for word in _BLANK_NAME_WORDS)


# Markdown and LaTeX that draw nothing: emphasis and code markers, math delimiters, braces,
# spacing commands, \phantom{...}, an empty \text{}. Removing them leaves any visible text.
_INVISIBLE_LATEX_RE = re.compile(
    r"\\(?:[hv]?phantom|hspace\*?|vspace\*?)\s*\{[^{}]{0,200}\}|\\(?:[,;:! ]|q?quad(?![A-Za-z])|"
    # a rule of zero width or zero height (\rule[raise]{width}{height}) draws nothing
    r"rule\s*(?:\[[^\]]{0,50}\])?\s*(?:\{\s*[-+]?0*\.?0*\s*[a-z]{0,2}\s*\}\s*\{[^{}]{0,50}\}|"
    r"\{[^{}]{0,50}\}\s*\{\s*[-+]?0*\.?0*\s*[a-z]{0,2}\s*\})|"
    r"(?:text|mathrm|textbf|mathbf|mbox)\s*\{\s*\})|\[\s*\]\([^()\s]{0,200}\)|"
    # math delimiters "\(\)", "\[\]" and the macros that expand to nothing ("$\empty$")
    r"\\[()\[\]]|\\(?:empty|relax)(?![A-Za-z])"
)
# The names of the frames and wrappers, which draw their content and nothing of their own
# (a frame around nothing is no answer: "<answer>\\boxed{}</answer>").
# (an underline or a box of set width around nothing is a blank to fill: "\\underline{\\qquad}",
# "\\makebox[1cm]{}"; a style switch alone draws nothing: "\\scriptstyle")
_WRAPPER_NAME_RE = re.compile(
    r"\\(?:boxed|fbox|framebox|text|mbox|mathrm|textbf|mathbf|ensuremath|underline|overline|"
    r"makebox|hbox|vbox|mathord|mathop|mathbin|mathrel|mathit|mathsf|mathtt|mathbb|mathcal|"
    r"textit|textsf|texttt|textnormal|emph|displaystyle|textstyle|scriptstyle|scriptscriptstyle)"
    r"(?![A-Za-z])(?:\[[^\]]{0,50}\])*")
# Struck-through text is shown taken back, no answer: "<del>12</del>", "~~12~~", "\\sout{12}".
_STRUCK_RE = re.compile(
    # (each match bounded: a flood of unclosed "<s>" costs a bounded scan each)
    r"<(del|s|strike)\b[^<>]{0,200}>(?:[^<]|<(?!/?\1\b)){0,300}</\1\s*>|~~[^~]{0,300}~~|\\(?:sout|st|xout|cancel|xcancel|bcancel)\s*\{[^{}]{0,200}\}",
    re.IGNORECASE | re.DOTALL)
_DIGIT_RE = re.compile(r"\d")
# Combining overlays that strike the character before them (stroke, solidus, prohibition).
_OVERLAY_RE = re.compile("[\u0334-\u0338\u20d2\u20d3\u20e0\u20e5\u20e6]")
_OVERLAID_RE = re.compile("[^\u0334-\u0338\u20d2\u20d3\u20e0\u20e5\u20e6][\u0334-\u0338\u20d2\u20d3\u20e0\u20e5\u20e6]+")
# Content outside the tags that does not render is still text there (a second answer can hide
# in it): an element that never renders, "\\iffalse ... \\fi", a phantom of something.
_HIDDEN_CONTENT_RE = re.compile(
    r"<\s*(?:noscript|details|object|iframe|svg|math)\b|\\iffalse|\\(?:[hv]?phantom)\s*\{\s*[^{}\s]", re.IGNORECASE)
# Markup text that does not render, or renders only where an image is missing: a comment, a
# processing instruction, CDATA or a declaration that holds a value (a digit, a number word,
# an answer noun, a choice letter: '<!-- 41 -->'), an attribute whose value does ('<img alt="41">',
# "<a href='7'></a>"), markdown's alt text and reference definitions. Unclosed, each runs to the
# end, as a browser reads it ('<!-- note -->' is a note: whitespace).
# (and a declaration, "<!DOCTYPE the answer is 7>", read to its ">": a comment's "--" holds no value)
_MARKUP_TEXT_OPENERS = (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"), ("<!", ">"))
# Markdown that shows no text of its own: an image's alt text ("![7](x.png)" where the image
# loads) and a reference definition or comment ("[//]: # (7)").
# A tag whose name carries a digit ("<answer6>"): a value in the markup.
_TAG_NAME_DIGIT_RE = re.compile(r"</?[A-Za-z][\w:.-]*\d")
_MARKDOWN_HIDDEN_RE = re.compile(r"!\[(?P<alt>[^\]\n]{0,500})\]\(|^[ \t]{0,3}\[[^\]\n]{1,200}\]:[^\n]*", re.MULTILINE)


def _text_in_markup(piece: str) -> bool:
    for opener, closer in _MARKUP_TEXT_OPENERS:
        at = piece.find(opener)
        while at >= 0:  # (one pass: each search starts where the last one ended)
            end = piece.find(closer, at + len(opener))
            if holds_value(piece, at + len(opener), len(piece) if end < 0 else end):
                return True
            at = -1 if end < 0 else piece.find(opener, end + len(closer))
    # (the texts are joined and tested once: one C pass each, not a pass per image)
    hidden = "\n".join(m.group(0) for m in _MARKDOWN_HIDDEN_RE.finditer(piece)) if "![" in piece or "]:" in piece else ""
    if hidden and holds_value(hidden, 0, len(hidden)):
        return True
    return attribute_with_value(piece) is not None or _TAG_NAME_DIGIT_RE.search(piece) is not None


# The marks that draw nothing on their own, taken out once the forms and names above are
# (taking out a backslash first would leave "\\boxed{}" as the letters "boxed").
_BLANK_MARKS_RE = re.compile(r"[*_`~$#{}\\]")
_BLANK_MARKS_OUTSIDE_RE = re.compile(r"[*_`$#{}]")  # (a backslash or a tilde left alone is shown)
# A placeholder in a tag stands for an answer not given: marks alone ("...", "?", "--"), empty
# quotes ('""', "「」"), an object-replacement box, or a word that says so ("TODO", "N/A",
# "None", "I don't know", "[answer]", "your answer here", the tag's name escaped).
_PLACEHOLDER_MARKS = (
    "\\s.\u2026?!\u00bf\u00a1\\-\u2010-\u2015\u00b7\u2022~,;:\"'\u2018\u2019\u201c\u201d\u00ab\u00bb\u300c\u300d"
    "\u300e\u300f\ufffc")
_PLACEHOLDER_RE = re.compile(
    # (an empty pair of brackets is a blank to fill: "( )", "[]")
    rf"[{_PLACEHOLDER_MARKS}%]*|[{_PLACEHOLDER_MARKS}]*(?:\([{_PLACEHOLDER_MARKS}]*\)|\[[{_PLACEHOLDER_MARKS}]*\]|<[ \t]*>)"
    rf"[{_PLACEHOLDER_MARKS}]*"
    rf"|[{_PLACEHOLDER_MARKS}\[\]<>()/]*"
    r"(?i:todo|tb[dac]|n/?a|none|null|nil|undefined|nan|unknown|i[ \t]+don['\u2019]?t[ \t]+know|idk|no[ \t]+idea|"
    r"not[ \t]+sure|(?:(?:your|the|my|final)[ \t]+)?answer(?:[ \t]+(?:goes[ \t]+)?here)?|"
    r"insert[ \t]+(?:(?:your|the)[ \t]+)?answer(?:[ \t]+here)?|placeholder|blank|insert|fill[ \t]+(?:this[ \t]+)?in|"
    r"(?:your|final)[ \t]+(?:result|solution)(?:[ \t]+here)?)"
    rf"[{_PLACEHOLDER_MARKS}\[\]<>()/]*")
# A Markdown line of block markers only renders no text: an empty list item ("-", "+ "), an
# empty blockquote ("> >") or a thematic break ("---", "- - -"); "*" and "_" are marks above.
# ("--" and "+-" are text: a list marker needs a space or the line's end after it.)
_BLOCK_MARK_LINE_RE = re.compile(r"^[ \t]*(?:#{1,6}|[-+*>]|(?:[-*_][ \t]*){3,})[ \t]*$", re.MULTILINE)
_EMPTY_BLOCK_LINE_RE = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:(?:[-+](?:[ \t]+|$))*|(?:-[ \t]*){3,})$", re.MULTILINE)


def _without_comments(text: str) -> str:
    """``text`` without its ``<!-- ... -->`` comments (an unclosed one is kept as text)."""
    out, i = [], 0
    while True:
        start = text.find("<!--", i)
        if start < 0:
            break
        end = text.find("-->", start + 4)
        if end < 0:
            break
        out.append(text[i:start])
        i = end + 3
    out.append(text[i:])
    return "".join(out)


def _inside_comment(text: str, marks: list[re.Match[str]]) -> re.Match[str] | None:
    """The first of ``marks`` inside an HTML comment or an element that never renders
    (``<style>``, ``<script>``, ``<template>``, ``hidden``, ``display:none``), else None. An
    unclosed ``<!--`` or element hides everything after it, as a browser renders it."""
    at = text.find("<!--")
    while at >= 0:
        end = text.find("-->", at + 4)
        end = len(text) if end < 0 else end + 3
        for m in marks:
            if at < m.start() < end:
                return m
        at = text.find("<!--", end)
    if "<" in text:
        for element in _UNRENDERED_ELEMENT_RE.finditer(text):
            name = element.group("name") or element.group("any")
            close = re.search(rf"</\s*{re.escape(name)}\s*>", text[element.end() :], re.IGNORECASE)
            end = len(text) if close is None else element.end() + close.end()
            for m in marks:
                if element.start() < m.start() < end:
                    return m
    return None


# An element whose content never renders: by its name, or by a "hidden" attribute or style.
_UNRENDERED_ELEMENT_RE = re.compile(
    r"<\s*(?:(?P<name>style|script|template)\b[^<>]{0,200}"
    r"|(?P<any>[A-Za-z][\w-]{0,20})\b[^<>]{0,200}?(?:\shidden\b|display\s*:\s*none|visibility\s*:\s*hidden)"
    r"[^<>]{0,200})>",
    re.IGNORECASE,
)


def _is_blank(text: str, *, placeholder: bool = True) -> bool:
    """Whether ``text`` shows nothing: whitespace, invisible characters, HTML comments, bare
    markup tags and entities that decode to those; with ``placeholder``, also what stands for
    nothing in a tag ("...", "?", "--"). Outside the tags a dot, a dash or a backslash is text."""
    if _only_blank_chars(text):
        return True
    # What renders: hidden content (white text, \phantom, comments) out, spacing commands
    # (\strut, \kern1em, \hfill, \hbox{}) and tags to spaces; the reading math uses.
    shown = visible_text(text)
    if not placeholder and _BLOCK_MARK_LINE_RE.search(shown):
        return False  # outside the tags, a heading mark, bullet, quote or rule is shown markup
    if "<" in shown or "&" in shown:
        shown = _MARKUP_TAG_RE.sub("", _without_comments(shown))
        if "&" in shown:
            for entity in _BLANK_ENTITIES:  # the common ones in C, before the general decoder
                shown = shown.replace(entity, "")
            shown = html.unescape(shown) if "&" in shown else shown
        if _only_blank_chars(shown):
            return True
    shown = _INVISIBLE_LATEX_RE.sub("", shown)
    if "\\" in shown:
        # a frame or wrapper draws only its content: without their names, "\\boxed{}",
        # "\\fbox{\\boxed{\\phantom{0}}}" and any nest of them are the braces that remain
        shown = _WRAPPER_NAME_RE.sub("", shown)
    shown = (_BLANK_MARKS_RE if placeholder else _BLANK_MARKS_OUTSIDE_RE).sub("", shown)
    if _only_blank_chars(shown):
        return True
    if ("-" in shown or "+" in shown or ">" in shown) and _only_blank_chars(_EMPTY_BLOCK_LINE_RE.sub("", shown)):
        return True
    # dots, dashes or question marks alone ("...", "…", "?", "--") are a placeholder
    return placeholder and _PLACEHOLDER_RE.fullmatch(shown) is not None


def _hidden_content(piece: str) -> bool:
    """Whether ``piece`` holds content that does not render: an element that never does
    (``<script>x</script>``, ``<div hidden>x</div>``), ``\\iffalse x \\fi`` or a phantom."""
    if ("<" not in piece and "\\" not in piece and "]" not in piece) or not piece.strip():
        return False
    if _HIDDEN_CONTENT_RE.search(piece) or _text_in_markup(piece):
        return True
    for element in _UNRENDERED_ELEMENT_RE.finditer(piece):
        close = piece.find("<", element.end())
        if close < 0 or piece[element.end() : close].strip():
            return True
    return False


def _only_blank_chars(text: str) -> bool:
    # Each distinct character once: linear in C, then at most a few hundred lookups.
    return all(_is_blank_char(c) for c in set(text))


@functools.lru_cache(maxsize=256)
def _tag_regex(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("<(/?)(" + "|".join(re.escape(n) for n in names) + ")>")


@functools.lru_cache(maxsize=256)
def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def extract_tag(text: str, tag: str) -> str | None:
    """The stripped text of the last complete ``<tag>...</tag>`` in ``text``, else ``None``.

    The last one wins, as with ``\\boxed{}``: a model that revises its answer is scored on the
    revision. An unclosed tag (a generation cut off by the length limit) gives ``None``.

    >>> extract_tag("<answer>3</answer> no wait <answer> 4 </answer>", "answer")
    '4'
    >>> extract_tag("<answer>4", "answer") is None
    True
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    _check_tag_name(tag, "tag")
    close = text.rfind(f"</{tag}>")
    if close < 0:
        return None
    opening = f"<{tag}>"
    start = text.rfind(opening, 0, close)
    if start < 0:
        return None
    return text[start + len(opening) : close].strip()


def _fail(rule: str, message: str, **details: Any) -> Verdict:
    return Verdict(0.0, f"{rule}: {message}", details={"rule": rule, **details})


def _check_tags(text: str, names: tuple[str, ...], allow_text_outside: bool) -> Verdict | None:
    """None when the tag structure is right, else the failing Verdict."""
    opens: dict[str, list[re.Match[str]]] = {n: [] for n in names}
    closes: dict[str, list[re.Match[str]]] = {n: [] for n in names}
    for m in _tag_regex(names).finditer(text):
        (closes if m.group(1) else opens)[m.group(2)].append(m)
    for name in names:
        n_open, n_close = len(opens[name]), len(closes[name])
        if n_open == 0 and n_close == 0:
            return _fail("missing_tag", f"<{name}> not found", tag=name)
        if n_open > 1 or n_close > 1:
            return _fail(
                "duplicate_tag",
                f"<{name}> opens {n_open} and closes {n_close} times (once each expected)",
                tag=name,
            )
        if n_close == 0 or n_open == 0 or closes[name][0].start() < opens[name][0].end():
            return _fail("unclosed_tag", f"<{name}> is not opened then closed", tag=name)
    hidden = _inside_comment(text, [m for n in names for m in (opens[n][0], closes[n][0])])
    if hidden is not None:
        return _fail("hidden_tag", f"{hidden.group(0)} is inside an HTML comment or hidden element (never shown)",
                     tag=hidden.group(2))
    spans = [(opens[n][0], closes[n][0]) for n in names]
    for (prev_name, (_, prev_close)), (name, (nxt_open, _)) in zip(
        zip(names, spans), zip(names[1:], spans[1:])
    ):
        if nxt_open.start() < prev_close.start():
            prev_open = opens[prev_name][0]
            if nxt_open.start() > prev_open.start():
                return _fail("nested_tag", f"<{name}> is inside <{prev_name}>", tag=name)
            return _fail("tag_order", f"<{name}> comes before <{prev_name}>", tag=name)
    for name, (o, c) in zip(names, spans):
        inside = text[o.end() : c.start()]
        shown = _STRUCK_RE.sub("", inside) if ("~~" in inside or "<" in inside or "\\" in inside) else inside
        if _OVERLAY_RE.search(shown):  # "5\u03363\u0336": each character struck by a combining overlay
            shown = _OVERLAID_RE.sub("", shown)
        if _is_blank(shown):
            struck = " (struck-through text counts as none)" if shown != inside else ""
            return _fail("empty_tag", f"<{name}> holds no text or only a placeholder{struck}", tag=name)
        if shown != inside and _DIGIT_RE.search(inside) and not _DIGIT_RE.search(shown):
            return _fail("empty_tag", f"<{name}> holds no value: every digit in it is struck through", tag=name)
    if not allow_text_outside:
        outside = [text[: spans[0][0].start()]]
        outside += [text[c.end() : o.start()] for (_, c), (o, _) in zip(spans, spans[1:])]
        outside.append(text[spans[-1][1].end() :])
        for piece in outside:
            # a code fence draws nothing itself but turns the tags into shown code: the
            # completion is a code block, not the structure asked for
            if not _is_blank(piece, placeholder=False) or _FENCE_RE.search(piece) or _hidden_content(piece):
                shown = piece.strip()[:40]
                return _fail(
                    "text_outside_tags",
                    f"{shown!r} is outside the tags (allow_text_outside=False)",
                )
    return None


def format_check(
    completion: str,
    answer: str | None = None,
    *,
    tags: str | Sequence[str] | None = DEFAULT_TAGS,
    pattern: str | re.Pattern[str] | None = None,
    max_chars: int | None = None,
    min_chars: int = 0,
    allow_text_outside: bool = False,
) -> Verdict:
    r"""Check a completion's format; reward 1.0 when every rule holds, else 0.0 and the rule.

    Args:
        completion: the model's text.
        answer: ignored (same signature as the other families).
        tags: tag names that must appear in this order, once each; ``()`` or ``None`` skips
            the tag rules. A ``str`` is one tag, or several joined by commas
            (``"think,answer"``, as ``--tags`` takes them).
        pattern: a regex that must be found in the completion (``re.search``).
        max_chars, min_chars: length limits on the completion, in characters.
        allow_text_outside: accept text before, between or after the tags.

    >>> format_check("<think>a</think> <answer>b</answer>").pred
    'b'
    >>> format_check("<answer>b</answer>", tags="answer", max_chars=10).reason
    'too_long: 18 chars > max_chars=10'
    >>> format_check("Hi <answer>b</answer>", tags=["answer"]).details["rule"]
    'text_outside_tags'
    """
    names = _normalise_tags(tags)
    if pattern is not None and not isinstance(pattern, str | re.Pattern):
        raise TypeError(f"pattern must be a str or re.Pattern, got {type(pattern).__name__}")
    for argument, value in (("max_chars", max_chars), ("min_chars", min_chars)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 0
        ):
            raise ValueError(f"{argument} must be a non-negative int, got {value!r}")
    if not isinstance(completion, str):
        return not_a_string(completion)
    if max_chars is not None and len(completion) > max_chars:
        return _fail("too_long", f"{len(completion)} chars > max_chars={max_chars}")
    if len(completion) < min_chars:
        return _fail("too_short", f"{len(completion)} chars < min_chars={min_chars}")
    pred = None
    flood = markup_flood(completion)
    if flood is not None:
        return _fail("markup_flood", flood)
    if names:
        failure = _check_tags(completion, names, allow_text_outside)
        if failure is not None:
            return failure
        pred = extract_tag(completion, names[-1])
    if pattern is not None:
        regex = _compile(pattern) if isinstance(pattern, str) else pattern
        if regex.search(completion) is None:
            return _fail(
                "pattern_mismatch",
                f"no match for pattern {regex.pattern[:80]}",
                pattern=regex.pattern,
            )
    return Verdict(1.0, CORRECT, pred=pred, details={"tags": names})


def format_reward(
    completion: str,
    answer: str | None = None,
    *,
    tags: str | Sequence[str] | None = DEFAULT_TAGS,
    pattern: str | re.Pattern[str] | None = None,
    max_chars: int | None = None,
    min_chars: int = 0,
    allow_text_outside: bool = False,
) -> float:
    """``format_check(...).reward``: 1.0 or 0.0.

    >>> format_reward("<think>x</think><answer>y</answer>")
    1.0
    """
    verdict = format_check(
        completion,
        answer,
        tags=tags,
        pattern=pattern,
        max_chars=max_chars,
        min_chars=min_chars,
        allow_text_outside=allow_text_outside,
    )
    return float(verdict.reward or 0.0)
