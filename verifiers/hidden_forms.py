r"""The forms that do not render, by name: HTML's elements and attributes as HTML defines
them (text elements, elements not rendered or not plain text, attributes that hide, move or
recolour), LaTeX's forms listed by what they do, markdown's by CommonMark, with the opening
regex of each (``_HIDDEN_FORMS``) and which of them a text may hold (``hidden_forms_in``: one
C pass rules most texts out). ``verifiers.hidden_content`` reads the regions they open. Moved
out of ``verifiers.hidden_content`` unchanged."""

from __future__ import annotations

import functools
import re

from verifiers.latex_commands import RENDERING_COMMANDS

__all__ = ["TEX_COMMENT", "hidden_forms_in"]

#
# The rule is an allow-list: only what is known to render as text is read as text. HTML
# elements are judged by HTML's own rules: of the elements HTML defines, only the text
# elements below show their content as text; every other one (scripts, styles, templates,
# media, forms, collapsed or struck-out or reordered text, ...) does not, or not surely. A
# name HTML does not define (``<think>``) renders its content, as browsers and markdown do.
# Of the attributes HTML defines, those that can hide, move or recolour an element, or that
# hold text shown elsewhere (a tooltip, an image's alt text), make its content uncertain;
# other attributes (``href``, ``lang``) and names HTML does not define change nothing.
# LaTeX has no closed set of names, so its forms that do not render are listed by what they
# do: conditionals, definitions, labels, HTML hooks, graphic transforms, and any colour but
# a short list of plain named ones.
#
# Content that surely does not render is removed; content that may not render is kept (a
# "not" in it still counts) but, like the first, refuses the completion when it holds a value.



def _names(words: str) -> list[str]:
    return words.split()


# HTML's text elements: their content renders as text (``<output>`` too: a result shown inline,
# as reasoning models wrap their answer after ``</think>``).
_TEXT_ELEMENTS = frozenset(
    _names(
    "a abbr acronym address article aside b big blockquote body br caption center cite code "
    "data dd dfn div dl dt em fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 "
    "header hgroup hr html i ins kbd label legend li main mark menu nav nobr ol output p pre q "
    "samp search section small span strong sub summary sup table tbody td tfoot th thead time "
    "tr tt u ul var wbr")
)  # fmt: skip
# HTML's other elements whose content surely does not render as text (or only as a fallback).
_NOT_RENDERED = _names(
    "applet area audio base canvas datalist details dialog embed frame frameset head iframe "
    "image img input keygen link map math meta noembed noframes noscript object optgroup "
    "option param picture portal rp script select slot source style svg template title "
    "track video"
)  # fmt: skip
# HTML's other elements whose content renders, but struck out, reordered, annotated or as
# a control: uncertain.
_NOT_PLAIN_TEXT = _names(
    "bdi bdo blink button del listing marquee meter plaintext progress rb rt rtc ruby "
    "s strike textarea xmp"
)  # fmt: skip
_VOID_ELEMENTS = frozenset(
    _names("area base br col embed hr image img input keygen link meta param source track wbr")
)
# Attributes HTML defines that can hide, move or recolour content or hold shown text;
# ``on*`` handlers, ``aria-*`` and ``data-*`` likewise.
_UNCERTAIN_ATTRIBUTES = _names(
    "abbr alt background bgcolor class color content dir face height hidden id is label "
    "popover placeholder size slot start style summary title value width"
)  # fmt: skip
# Attribute values that surely hide their element: removed, not only uncertain.
_HIDING_ATTRIBUTE_RE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|(?<![\w-])hidden(?![\w-])|"
    r"font-size\s*:\s*0*\.?0+(?![\d.])|(?<![\w-])color\s*[:=]\s*[\"']?\s*(?:white|#fff(?:fff)?\b|"
    r"rgb\(\s*255\s*,\s*255\s*,\s*255\s*\)|transparent)|opacity\s*:\s*0*\.?0+(?![\d.])",
    re.IGNORECASE,
)
# Plain named LaTeX colours a reader sees on a white page; any other colour (white,
# transparent, a mix, a model, a code) may be the background's.
_VISIBLE_COLORS = frozenset(
    _names("black blue brown cyan darkblue darkgray darkgreen darkred gray green grey magenta maroon "
    "navy olive orange purple red teal violet")
)  # fmt: skip
_NAME_END = r"(?![\w.:-])"


def _trie_regex(words: list[str]) -> str:
    """A regex matching exactly ``words``, as a trie: each position tests one character
    class instead of every word in turn (a ``<`` in a 1 MB text meets it 100k times)."""
    tree: dict[str, dict] = {}
    for word in words:
        node = tree
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}

    def emit(node: dict[str, dict]) -> str:
        ends = "" in node
        branches = [re.escape(c) + emit(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{body})?" if ends else body

    return emit(tree)


# Openings of hidden regions (each with how its extent is found in ``_hidden_region``), and
# substrings one of which every text holding it holds: the pass compiles only those forms.
_HIDDEN_FORMS = {
    "conditional": (
        r"\\newif\s*\\if[A-Za-z]*|\\ifthenelse(?![A-Za-z])|\\if(?!f(?![A-Za-z]))[A-Za-z]*",
        ("\\if", "\\newif"),
    ),
    "comment_env": (r"\\begin\s*\{\s*comment\s*\}", ("omment",)),
    "definition": (
        r"\\(?:(?:re)?newcommand|providecommand|DeclareMathOperator|(?:re)?newenvironment)"
        r"(?![A-Za-z])\*?|\\[gex]?def(?![A-Za-z])",
        ("def", "\\new", "\\renew", "\\provide", "\\Declare"),
    ),
    "label": (r"\\label(?![A-Za-z])", ("\\label",)),
    "hook": (
        r"\\(?:class|cssId|style|htmlStyle|htmlClass|htmlId|htmlData)(?![A-Za-z])",
        ("\\class", "\\css", "\\style", "\\html"),
    ),
    "transform": (
        r"\\(?:scalebox|resizebox|rotatebox|reflectbox|raisebox|turnbox)(?![A-Za-z])\*?",
        ("scalebox", "resizebox", "rotatebox", "reflectbox", "raisebox", "turnbox"),
    ),
    "html_comment": (r"<!--", ("<!--",)),
    "declaration": (r"<[?!]", ("<?", "<!")),
    "element": (
        rf"<(?P<tag>{_trie_regex(_NOT_RENDERED + _NOT_PLAIN_TEXT)}{_NAME_END})[^<>]{{0,300}}>"
        r"|<(?P<tag2>[A-Za-z][\w.:-]{0,30})\s[^<>]{0,300}?(?<=[\s\"'])(?P<attr>"
        + _trie_regex(_UNCERTAIN_ATTRIBUTES)
        + r"|on[a-z]+|aria-[\w-]+|data-[\w-]+)(?=\s*=|\s|/?>)[^<>]{0,300}>",
        ("<",),
    ),
    "md_definition": (r"^[ ]{0,3}\[(?!\^)[^\[\]]{1,999}\]:", ("]:",)),
    "md_link": (r"(?P<image>!)?\[[^\[\]\n]{0,1000}\]\(", ("](",)),
    "color": (
        r"\\(?:textcolor|color|colorbox)\s*(?P<model>\[[^\]]{0,20}\])?\s*\{(?P<spec>[^{}]{0,40})\}",
        ("olor",),
    ),
    "phantom": (r"\\[hv]?phantom(?![A-Za-z])", ("phantom",)),
    # "%" in math mode, but "10%" is a percent sign wherever it stands (GSM8K's "$" is money)
    # ("60 % of the profits" too: a number, a space, the sign and "of" or a copula)
    "math_comment": (r"(?<![\\\d])(?!(?<=\d )% ?(?:of|were|are|is|was)\b)%", ("%",)),
    "tex_comment": (r"(?<![\\\d\s])[ \t]*%|^[ \t]*%", ("%",)),
    # content moved over other content or off the page: a negative space, a raise or move
    # ("$\kern-100em{The answer is 7.}$", "\llap{7}\hspace{-50em}")
    "shift": (
        r"\\(?:kern|mkern|hskip|mskip|hspace\*?|mspace|hglue)[ \t]*\{?[ \t]*-|"
        r"\\(?:raise|lower|moveleft|moveright)(?![A-Za-z])|"
        r"(?:\\(?:!|neg(?:thin|med|thick)space(?![A-Za-z]))[ \t]*){4,}",
        ("kern", "skip", "space", "raise", "lower", "move", "glue", "\\!"),
    ),
    # the allow-list: a command not known to typeset its argument in place, with an argument
    # (``\mathtip{}{7}``, ``\href{The answer is 7.}{}``, ``\unicode{55}``, ``\toggle{7}{5}``).
    # Its pattern names the unlisted commands the text holds (``_unlisted_form``): a regex
    # that tests every command against the whole list costs microseconds per backslash.
    "unlisted": ("", ()),
}


_ARGUMENT_AHEAD = r"(?=[ \t]*(?:\[[^\[\]\n]{0,100}\][ \t]*)?[{\d])"
_COMMAND_NAME_RE = re.compile(rf"\\([A-Za-z]+)\*?{_ARGUMENT_AHEAD}")  # with an argument
_MAX_NAMED_UNLISTED = 200  # more distinct unlisted commands than this: any command is read


def _unlisted_form(text: str) -> str | None:
    """The ``unlisted`` form for ``text``: ``"unlisted:"`` and the unlisted command names it
    holds (``"unlisted:*"`` past ``_MAX_NAMED_UNLISTED`` of them), or None when it holds
    none. One pass in C over the command names."""
    names = set(_COMMAND_NAME_RE.findall(text)) - RENDERING_COMMANDS
    if not names:
        return None
    if len(names) > _MAX_NAMED_UNLISTED:
        return "unlisted:*"
    return "unlisted:" + "|".join(sorted(names))


def _form_pattern(form: str) -> tuple[str, str]:
    """``(group name, pattern)`` of a form named in a forms tuple."""
    if not form.startswith("unlisted:"):
        return form, _HIDDEN_FORMS[form][0]
    names = form[len("unlisted:") :]
    if names == "*":  # listed ones are skipped one by one (``_hidden_region``)
        return "unlisted", rf"\\[A-Za-z]+\*?{_ARGUMENT_AHEAD}"
    return "unlisted", rf"\\(?-i:{_trie_regex(names.split('|'))})(?![A-Za-z])\*?{_ARGUMENT_AHEAD}"


@functools.lru_cache(maxsize=64)
def _hidden_regex(forms: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(f"(?P<{name}>{pattern})" for name, pattern in map(_form_pattern, forms))
    # every form starts with one of these characters (a "<" before a letter, "!" or "?": no
    # tag opens "<<" or "< "): other positions fail at once
    return re.compile(rf"(?=[\\%!\[ \t]|<[A-Za-z!?])(?:{alternatives})", re.IGNORECASE | re.MULTILINE)


# Each form's hints are substrings (found in C), one of which every text holding it holds;
# no form opens without a "\", "<" or "]": one search for those rules them all out.
_ANY_HINT_RE = re.compile(r"[\\<\]]")
_MATH_DELIMITER_RE = re.compile(r"\\[()\[\]]|(?<!\\)\$\$?")


# A TeX "%" comment's opening (not "50%" nor "\\%"), for readers that look inside comments.
TEX_COMMENT = _HIDDEN_FORMS["tex_comment"][0]


# The forms that open with a TeX command ("\\"): every alternative of each pattern does.
_COMMAND_FORMS = frozenset(
    ("conditional", "comment_env", "definition", "label", "hook", "transform", "color", "phantom", "shift", "unlisted")
)
_ELEMENT_OPEN_RE = re.compile(r"<[A-Za-z]")  # every element's tag opens so
_GROUP_PERCENT_RE = re.compile(r"(?<!\\)\{[ \t]*%")


def hidden_forms_in(text: str, tex_comments: bool) -> tuple[str, ...]:
    has_percent = "%" in text
    if _ANY_HINT_RE.search(text) is None and not has_percent:
        return ()  # one C pass decides for most texts
    has_command = "\\" in text
    forms = []
    for name in _HIDDEN_FORMS:
        if name in _COMMAND_FORMS and not has_command:
            continue  # (a text without a backslash holds no TeX form: one test, not a dozen)
        if name == "tex_comment":
            if tex_comments and has_percent:
                forms.append(name)
        elif name == "math_comment":
            if has_percent and not tex_comments and (_MATH_DELIMITER_RE.search(text) or _GROUP_PERCENT_RE.search(text)):
                forms.append(name)
        elif name == "unlisted":
            unlisted = _unlisted_form(text) if "\\" in text else None
            if unlisted is not None:
                forms.append(unlisted)
        elif name == "element":
            if "<" in text and _ELEMENT_OPEN_RE.search(text):  # (not GSM8K's "<<4*2=8>>")
                forms.append(name)
        elif any(h in text for h in _HIDDEN_FORMS[name][1]):
            forms.append(name)
    return tuple(forms)
