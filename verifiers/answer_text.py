r"""The visible text of a completion: the one normalisation every answer reader runs first.

A reader must judge what a person looking at the rendered completion would see, so the text
is normalised once, before anything reads it (``visible_text``):

1. **Look-alikes and invisibles** (non-ASCII text only, one ``str.translate`` pass):
   characters that render as nothing (Unicode's default-ignorable set) are removed; NFKC's
   compatibility forms (fullwidth ``５``, math bold ``𝟓``, no-break spaces, ligatures) are read
   as what they show, except superscripts, subscripts and vulgar fractions (``x²`` is x^2,
   ``½`` a half: the comparator reads those); a confusables table (after UTS #39) reads
   Cyrillic, Greek and Armenian letters shaped like Latin ones as those; every space-like
   character, the blank braille pattern included, is a space; every dash or minus sign is
   ``-`` when a digit follows it, and a sign glued to a word of two letters or more, or to
   a letter of a script written without spaces, is the number's sign (``答案是-5`` and
   ``is-5`` read ``-5``; ``x-5``, ``2π-3`` and ``x²-5`` subtract).
   A currency sign next to a number is its unit (``€92`` reads ``92 euros``; ``£``, ``¥``,
   ``₹``, ``¢`` likewise; ``$`` delimits math, and the readers take ``\$`` as dollars).
   A bidirectional control (embeddings, overrides, isolates in the paragraph of a value;
   the marks LRM, RLM, ALM next to a digit) changes the order in which digits render
   (``\u202e15`` shows ``51``): the completion is refused, as for a hidden value.
2. **What renders is an allow-list** (``verifiers.hidden_forms`` and
   ``verifiers.hidden_content`` hold the rules): HTML's text elements and names HTML does
   not define show their content; HTML's other elements,
   elements with an attribute that can hide them or that holds text, style sheets,
   ``<?..?>``, ``<![CDATA[..]]>`` and HTML comments may not. In LaTeX, conditionals (any
   ``\if..\fi``), comment environments, definitions, ``\label``, HTML hooks (``\class``,
   ``\style``), graphic transforms (``\scalebox``), ``\phantom``, any colour but plain
   named ones, ``%`` comments in math spans (``10%`` and ``\%`` are percent signs; on
   request every TeX ``%`` comment); in markdown, comments and reference definitions,
   link destinations and titles, and image alt text. Content that surely does not render is
   replaced by a space; content that may render is kept (a "not" in it still counts). A
   value in either refuses the completion (``read_visible``'s second item). An unclosed
   hiding form hides the rest of the text, as do the forms past ``MAX_HIDDEN_FORMS``.
3. **Markup reads as a space**: HTML/XML tags (except ``<answer>``, a commitment), LaTeX
   spacing commands (``\,``, ``\quad``, ``\hspace{..}``, ``\kern``, ``\hfill``, ``\strut``),
   and text wrappers around words (``\text{ or }``, ``\textbf{or}``): the words stay.
   A thousands separator between digits (``1\,000``, ``1\!000``) is kept. Inline code
   (```57```) shows its text, styled: it reads as bold (``**57**``).
4. **The end of the turn**: a chat template's end-of-turn token (``<|im_end|>``,
   ``<|eot_id|>``, ``</s>`` in a text that opens no ``<s>``, ...) in a raw decode ends the
   text; prose after it is dropped and a value after it is a hidden value.

Every step is one regex pass or one ``find`` walk, so the whole pass is linear.

>>> visible_text(r"\boxed{5} \hspace{1em}\textbf{or} <b>6</b>")
'\\boxed{5}   or   6 '
>>> visible_text("\\boxed{５} \u2212\u200b3 <!-- \\boxed{6} -->").rstrip()
'\\boxed{5} -3'
"""

from __future__ import annotations

import re
import sys
import unicodedata

from verifiers.hidden_content import (
    MAX_HIDDEN_FORMS,
    attribute_with_value,
    holds_value,
    without_hidden,
)
from verifiers.hidden_forms import TEX_COMMENT, hidden_forms_in
from verifiers.numeral_forms import (
    numerals_as_digits,
    roman_numerals_as_digits,
    roman_values_as_digits,
)
from verifiers.reasoning_blocks import (
    _REASONING_END_RE,
    _REASONING_OPEN_RE,
    REASONING_END_MARK,
    REASONING_START_MARK,
    _as_tags,
)

__all__ = [
    "MAX_CURRENCY_SIGNS",
    "MAX_GLUED_SIGNS",
    "MAX_HIDDEN_FORMS",
    "NUMBER_EMOJI",
    "NUMERIC_CHARS",
    "commented_commitment",
    "read_visible",
    "visible_text",
]

# Unicode's Default_Ignorable_Code_Point set (DerivedCoreProperties.txt): drawn as nothing.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
# Confusables (UTS #39 confusables.txt, the letters shaped like Latin ones that a policy can
# use to spell "or" past a word match). Greek letters used as math symbols (pi, nu, kappa) are
# left alone: they are values.
_CONFUSABLES = {
    "a": "\u0430\u0251", "c": "\u0441\u03f2", "d": "\u0501", "e": "\u0435", "h": "\u04bb\u0570",
    "i": "\u0456", "j": "\u0458", "n": "\u0578", "o": "\u043e\u03bf\u0585\u0ce6", "p": "\u0440",
    "q": "\u051b\u0566", "r": "\u0433", "s": "\u0455", "u": "\u057d", "w": "\u051d",
    "x": "\u0445", "y": "\u0443", "A": "\u0410\u0391", "B": "\u0412\u0392", "C": "\u0421",
    "E": "\u0415\u0395", "H": "\u041d\u0397", "I": "\u0406\u0399", "J": "\u0408",
    "K": "\u041a\u039a", "M": "\u041c\u039c", "N": "\u039d", "O": "\u041e\u039f",
    "P": "\u0420\u03a1", "S": "\u0405", "T": "\u0422\u03a4", "X": "\u0425\u03a7",
    "Y": "\u03a5", "Z": "\u0396",
}  # fmt: skip
# NFKC decompositions read as what they show; the others change the value (x² is x^2).
_KEPT_TAGS = ("<super>", "<sub>", "<fraction>")
# Thai and Lao SARA AM are the spelling of their words ("คำตอบ", "answer"); NFKC splits each
# into two signs that render the same, so phrase tables would stop matching.
_KEPT_CHARS = frozenset("\u0e33\u0eb3")
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2796\ufe58\ufe63\uff0d\u02d7\u207b\u208b"


# The pictographs that name a number, read as themselves (a value the readers refuse as an
# unread symbol): keycap ten, hundred points, input numbers, the 8 ball, the three medals and
# the clock faces. Every other pictograph is tone and reads as a space.
NUMBER_EMOJI = frozenset({0x1F51F, 0x1F4AF, 0x1F522, 0x1F3B1, 0x1F947, 0x1F948, 0x1F949, *range(0x1F550, 0x1F568)})


class _ReadAs(dict[int, "str | None"]):
    """``str.translate`` table filled on first sight of each character (a 1 MB text holds few
    distinct ones, and the full table would cost the import a pass over all of Unicode)."""

    def __missing__(self, code: int) -> str | None:
        c = chr(code)
        value: str | None = c
        if c.isascii():
            pass  # ASCII reads as itself: a newline stays a newline
        elif c in "\u2028\u2029\x85":
            value = "\n"  # line and paragraph separators end a line
        elif c.isspace() or unicodedata.name(c, "").endswith(("BLANK", "FILLER")):
            value = " "
        elif not unicodedata.decomposition(c) and unicodedata.decimal(c, None) is not None:
            value = str(unicodedata.decimal(c))  # a digit of any script reads as its value: "٥" is 5
        else:
            decomposition = unicodedata.decomposition(c)
            if (
                decomposition.startswith("<")
                and not decomposition.startswith(_KEPT_TAGS)
                and c not in _KEPT_CHARS
            ):
                value = unicodedata.normalize("NFKC", c)
        self[code] = value
        return value


def _read_as_table() -> _ReadAs:
    table = _ReadAs()
    for lo, hi in _IGNORABLE_RANGES:
        table.update(dict.fromkeys(range(lo, hi + 1)))
    # Dashes: read as "-" only before a digit (below); a dash between words stays a dash.
    # The heavy arithmetic pictographs are their signs: "24 \U0001f7f0 \\boxed{1}" says 24 = 1.
    table.update({0x2795: "+", 0x2797: "\u00f7", 0x1F7F0: "="})  # (\u2716 is a cross mark too)
    return table


_READ_AS = _read_as_table()
# Confusables are read as Latin only in a run that touches a Latin letter ("оr", "аnswer"
# spelled with Cyrillic а): a word wholly in its own script ("Ответ", "answer" in Russian)
# is that word, and reading its о and е as Latin would hide it from the answer phrases.
_CONFUSABLE_TABLE = {ord(s): latin for latin, shapes in _CONFUSABLES.items() for s in shapes}
_CONFUSABLE_CLASS = "".join(sorted("".join(_CONFUSABLES.values())))
_CONFUSABLE_RUN_RE = re.compile(
    f"(?<=[A-Za-z])[{_CONFUSABLE_CLASS}]+|[{_CONFUSABLE_CLASS}]+(?=[A-Za-z])"
)
_MAX_CONFUSABLE_RUNS = 10_000  # past this many (each a Python step) every one is read as Latin


def _read_confusables(text: str) -> str:
    pieces: list[str] = []
    at = 0
    for k, m in enumerate(_CONFUSABLE_RUN_RE.finditer(text)):
        if k >= _MAX_CONFUSABLE_RUNS:
            return text.translate(_CONFUSABLE_TABLE)
        pieces += [text[at : m.start()], m.group().translate(_CONFUSABLE_TABLE)]
        at = m.end()
    if not pieces:
        return text
    pieces.append(text[at:])
    return "".join(pieces)
_DASH_BEFORE_DIGIT_RE = re.compile(f"[{_DASHES}](?=\\s?\\d)")
# A sign glued to a word is the number's sign, not a hyphen: "答案是-5" (a script written
# without word spaces) and "is-9" (a word of two letters or more) read "-5" and "-9"; the
# sign gets a space so the readers see it. A single Latin or Greek letter keeps its
# subtraction ("x-5", "2π-3"), as do digits, superscripts, subscripts and number forms
# ("x²-5"). The pattern starts with the sign, so a text is searched for "-" in C.
MAX_GLUED_SIGNS = 10_000  # a text with more "-" is left as it is (each space moves the rest)
_NUMBER_FORMS = "\u00b2\u00b3\u00b9\u00bc-\u00be\u2070-\u209f\u2100-\u218f"
_LETTER = f"[^\\W\\d_{_NUMBER_FORMS}]"
_GLUED_SIGN_RE = re.compile(
    f"-(?=\\d)(?:(?<=[^\\W\\d_\x00-\x7f\u0370-\u03ff\u1f00-\u1fff{_NUMBER_FORMS}]-)"
    f"|(?<={_LETTER}{_LETTER}-))"
)
# Bidirectional controls change the order in which digits render: "#### \u202e15\u202c"
# shows 51. Stripping them reads a number the reader does not see, so a value near one is
# refused. Embeddings, overrides and isolates act to the end of their paragraph; the
# marks (LRM, RLM, ALM) act on their neighbours.
_BIDI_SPANS = "\u202a-\u202e\u2066-\u2069"
_BIDI_MARKS = "\u200e\u200f\u061c"
_BIDI_SPAN_RE = re.compile(f"[{_BIDI_SPANS}]")
_BIDI_MARK_NEAR_VALUE_RE = re.compile(
    f"[{_BIDI_MARKS}][^\\w\\n]{{0,3}}\\d|\\d[^\\w\\n]{{0,3}}[{_BIDI_MARKS}]"
)
_BIDI_CHARS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" + _BIDI_MARKS)
_PARAGRAPH_END_RE = re.compile(r"\n[ \t]*\n")
_DIGIT_RE = re.compile(r"\d")
# Currency signs (Unicode category Sc) read as the unit the comparator knows, so "\boxed{€92}"
# is 92 euros as "\boxed{\$92}" is 92 dollars ("$" itself delimits math: the readers handle
# "\$"). A sign with no unit word here ("₩", "₽") is left as it is and is not read.
_CURRENCY_WORDS = {"\u20ac": "euros", "\u00a3": "pounds", "\u00a5": "yen", "\u20b9": "rupees",
                   "\u20a8": "rupees", "\u00a2": "cents"}  # fmt: skip
_CURRENCY_CHARS = frozenset(_CURRENCY_WORDS) | {"\uffe0", "\uffe1", "\uffe5"}  # NFKC: ¢ £ ¥
# More signs of one currency than this are left as they are (each move costs a Python
# step; no answer needs them).
MAX_CURRENCY_SIGNS = 1_000
# Per sign, its regex before and after a number and the template that moves it behind as a
# word (a template is expanded in C; a callback per match costs a Python call).
_CURRENCY_SUBS = {
    sign: (
        re.compile(f"{sign}[ \\t]?([-+]?\\d(?:[\\d,.]*\\d)?(?: \\d{{3}}(?!\\d))*)"),
        rf"\1 {word}",
        re.compile(f"(?<=\\d)[ \\t]?{sign}"),
        f" {word}",
    )
    for sign, word in _CURRENCY_WORDS.items()
}


def _bidi_near_value(text: str) -> str | None:
    """A description of the first bidirectional control that can change how a value renders
    (module doc), or None; one pass over each paragraph that holds one."""
    mark = _BIDI_MARK_NEAR_VALUE_RE.search(text)
    found = None
    if mark is not None:
        found = next(c for c in mark.group() if c in "\u200e\u200f\u061c"), mark.start()
    at = 0
    while (m := _BIDI_SPAN_RE.search(text, at)) is not None:
        if found is not None and m.start() > found[1]:
            break
        start = max(text.rfind("\n\n", 0, m.start()), 0)
        end_m = _PARAGRAPH_END_RE.search(text, m.end())
        end = len(text) if end_m is None else end_m.start()
        if _DIGIT_RE.search(text, start, end) or holds_value(text, start, end):
            found = m.group(), m.start()
            break
        at = end
    if found is None:
        return None
    char, where = found
    context = text[max(0, where - 20) : where + 20]
    return f"bidi control U+{ord(char):04X} {unicodedata.name(char, '')} by a value: {context!r}"


# Characters that draw nothing but carry text: the tag block (U+E0020-E007E is ASCII moved
# up by U+E0000) and runs of variation selectors (256 of them, one per byte: "emoji
# smuggling"). A policy can spell " or 6" in them after a visible 5; stripped, the reader
# would see one value where a model reading the tokens sees two. A payload that holds a
# value is hidden content (refused); one that holds none (a flag's tag sequence) is dropped.
_TAG_RUN_RE = re.compile("[\U000e0000-\U000e007f]+")
# (one supplement selector alone spells a byte too, unless it follows an ideograph: there it
# picks the glyph of an ideographic variation sequence)
_SELECTOR_RUN_RE = re.compile(
    "[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}"
    "|(?<![\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f])[\U000e0100-\U000e01ef]"
)


def _selector_byte(c: str) -> int:
    code = ord(c)
    return code - 0xFE00 if code <= 0xFE0F else code - 0xE0100 + 16


def _invisible_payload(text: str) -> str | None:
    """A description of the first run of tag characters or variation selectors whose decoded
    text holds a value, or None (one regex pass per kind, only over texts that hold one)."""
    for m in _TAG_RUN_RE.finditer(text):
        decoded = "".join(chr(ord(c) - 0xE0000) for c in m.group() if ord(c) >= 0xE0020)
        if holds_value(decoded, 0, len(decoded)):
            return f"a value spelled in invisible tag characters: {decoded[:40]!r}"
    for m in _SELECTOR_RUN_RE.finditer(text):
        decoded = bytes(map(_selector_byte, m.group())).decode("utf-8", "replace")
        if holds_value(decoded, 0, len(decoded)):
            return f"a value spelled in variation selectors: {decoded[:40]!r}"
    return None


def _numeric_chars() -> str:
    """A regex class body of the characters with a numeric value that are no decimal digit
    (``〇``, ``五``, ``Ⅻ``, ``½``): values a reader sees though ``\\d`` misses them. Superscripts
    and subscripts are left out: ``cm²`` is a unit's power."""
    chars = [
        c
        for c in map(chr, range(sys.maxunicode + 1))
        if c.isnumeric()
        and not c.isdecimal()
        and not unicodedata.decomposition(c).startswith(("<super>", "<sub>"))
    ]
    runs: list[list[int]] = []
    for code in map(ord, chars):  # as ranges: a class of single characters is slow to test
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(
        re.escape(chr(lo)) if lo == hi else f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"
        for lo, hi in runs
    )


NUMERIC_CHARS = _numeric_chars()
# --- markup that reads as a space ---------------------------------------------------------------

_MARKUP_RE = re.compile(
    # every form starts with "<" and a letter or "/", or with "\" and a letter or a spacing
    # mark: other positions fail at once, and a "<" tries the tag alone
    # (not <confidence>: how sure the answer is, read by the tail rule as no second answer)
    r"(?:(?=<[A-Za-z/])</?(?!answer>|confidence>)[A-Za-z][\w.:-]{0,30}(?:\s[^<>]{0,300})?/?>"
    # LaTeX spacing (a thousands separator between digits is kept: 1\,000, 1\!000)
    # (never the second backslash of a line break: in "1 & 2 \\ 3" the "\\" stays)
    r"|(?=\\[A-Za-z,!;: >])(?:(?<![\d\\])\\[,!](?!\d)|(?<!\\)\\[,!](?!\d{3}(?!\d))|(?<!\\)\\[;: >]"
    r"|\\(?:q?quad|enspace|thinspace|medspace|thickspace|negthinspace|negmedspace|"
    r"negthickspace|hfill|vfill|hss|strut|mathstrut|null|relax|allowbreak|nobreak|newline|linebreak|"
    r"par|noindent|displaystyle|textstyle|smallskip|medskip|bigskip)(?![A-Za-z])"
    r"|\\(?:[hv]space\*?|hskip|vskip|kern|mkern|mskip|hglue|vglue)\s*"
    r"(?:\{[^{}]{0,100}\}|-?\d*\.?\d+\s*(?:em|ex|pt|mu|cm|mm|in|px)?)"
    # a text wrapper around words (no digits, no commands): the words stay
    r"|\\(?:text|textbf|textit|textrm|textsf|texttt|textnormal|textup|emph|mbox|mathrm|"
    r"operatorname|[hv]box|smash|[lrc]lap|math[lrc]lap)\s*\{(?P<words>[^{}\\\d]{0,200})\}))"
)
_SPACED_THOUSANDS_RE = re.compile(r"(?<=\d,)\\!\s*(?=\d{3}(?!\d))")  # ",\!" only: ",\," spaces a list
_MARKUP_HINT_RE = re.compile(r"\\|</?[A-Za-z]")


# Between two digits: a comment holding no digit, or an element with no content.
_TAG_OPEN_RE = re.compile(r"<[A-Za-z!]")
_BLANK_LINE_RE = re.compile(r"\n[ \t]++(?=\n)")
_NOTHING_BETWEEN_DIGITS_RE = re.compile(
    r"(?<=\d)(?:<!--(?:(?!-->)[^\d<>]){0,100}-->|<([A-Za-z]\w{0,20})(?:\s[^<>\d]{0,200})?></\1>)+(?=\d)"
)


# A chat template's end-of-turn token, as a raw decode that keeps special tokens prints it
# (NFKC has read DeepSeek's fullwidth bars as "|"). The turn ends there: what follows is not
# shown as part of the answer. "</s>" is also HTML's strike-through: an end token only in a
# text that opens no <s> element.
_END_TOKEN = (
    r"<\|(?:im_end|eot_id|eot|end|endoftext|end_of_text|return|end▁of▁sentence)\|>"
    r"|<end_of_turn>|<eos>"
)
_END_TOKEN_RE = re.compile(_END_TOKEN)
_END_TOKEN_OR_S_RE = re.compile(f"{_END_TOKEN}|</s>")
_STRIKE_OPEN_RE = re.compile(r"<s[\s>]", re.IGNORECASE)
_AFTER_END_RE = re.compile(rf"(?:\s|{_END_TOKEN}|</s>)*")
# Inline code (`57`) shows its text, styled: read as bold, a value on display as bold is (so
# "`1 + 1` or #### 1" still offers two values). Fences (```) are left alone.
_FENCE_LINE_RE = re.compile(r"^[ \t]*```[ \t]*[A-Za-z][\w+#.-]{0,30}[ \t]*$", re.MULTILINE)
_INLINE_CODE_RE = re.compile(r"(?<!`)`([^`\n]{1,200})`(?!`)")
# Past this many backticks the spans are left as written (bold displays cost the readers a
# step each; no answer needs them), as past MAX_CURRENCY_SIGNS.
MAX_INLINE_CODE_MARKS = 2_000
# More "<" or "\" than these and a text is a flood of markup, not an answer: the readers
# refuse it (``markup_flood``) instead of trying every tag or command form at each one (1 MB
# of "<a" took 0.5 s, of "\" 0.8 s in format_check). A long LaTeX solution holds a few
# thousand backslashes.
MAX_ANGLE_BRACKETS = 10_000
MAX_BACKSLASHES = 20_000


def markup_flood(text: str) -> str | None:
    """Why ``text`` holds more markup openings than any answer needs, or None (C counts)."""
    for mark, most in (("<", MAX_ANGLE_BRACKETS), ("\\", MAX_BACKSLASHES)):
        count = text.count(mark)
        if count > most:
            return f"{count:,} {mark!r} (more than {most:,}): markup beyond reading"
    return None


def _end_of_turn(text: str) -> tuple[str, str | None]:
    """``text`` up to its first end-of-turn token, and a description of the value after it
    when one follows (a turn that ends before its last value hides that value), else None."""
    pattern = _END_TOKEN_RE if _STRIKE_OPEN_RE.search(text) else _END_TOKEN_OR_S_RE
    m = pattern.search(text)
    if m is None:
        return text, None
    rest = m.end()
    if _AFTER_END_RE.fullmatch(text, rest) is not None:
        return text[: m.start()], None
    if holds_value(text, rest, len(text)) or _DIGIT_RE.search(text, rest) is not None:
        return text[: m.start()], f"a value after the end of the turn {m.group()!r}"
    return text[: m.start()], None


# A vulgar fraction with a finite decimal, alone or after a whole number ("\u00bd", "2\u00bd",
# "2 \u00bd"), reads as that decimal; thirds and sixths are left as written.
_DECIMAL_FRACTIONS = {"\u00bd": 5, "\u00bc": 25, "\u00be": 75, "\u215b": 125, "\u215c": 375, "\u215d": 625,
                      "\u215e": 875, "\u2155": 2, "\u2156": 4, "\u2157": 6, "\u2158": 8, "\u2152": 1}
_VULGAR_RE = re.compile(r"(?<![\d.,])(\d{1,12})?[ \t]?([" + "".join(_DECIMAL_FRACTIONS) + r"])(?![\d])")


def _vulgar_as_decimal(m: re.Match[str]) -> str:
    digits = _DECIMAL_FRACTIONS[m.group(2)]
    places = {"\u2155": 1, "\u2156": 1, "\u2157": 1, "\u2158": 1, "\u00bd": 1, "\u00bc": 2, "\u00be": 2,
              "\u2152": 1}.get(m.group(2), 3)
    lead = " " if m.group(1) is None and m.group(0)[:1] in " \t" else ""
    return f"{lead}{m.group(1) or 0}.{digits:0{places}d}"




_KEYCAP_RE = re.compile("(?<=[0-9#*])\ufe0f?\u20e3")
# Pictographs and symbols that are tone, no value: the emoji blocks, the miscellaneous symbols
# and dingbats, geometric shapes and stars (not the dingbats' circled digits, their ballot X
# or arithmetic signs, and not the pictographs that name a number, ``NUMBER_EMOJI``).
_TONE_RANGES = ((0x1F300, 0x1FAFF), (0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x25A0, 0x25FF))
_NOT_TONE = frozenset({*range(0x2776, 0x2794), 0x2713, 0x2714, 0x2716, 0x2717, 0x2718, 0x274C, 0x274E, 0x2795,
                       0x2796, 0x2797, 0x1F7F0})  # (and check and cross marks: they judge, which the tail reads)


def _is_tone(code: int) -> bool:
    return any(lo <= code <= hi for lo, hi in _TONE_RANGES) and code not in NUMBER_EMOJI and code not in _NOT_TONE


_STOP_RUN_RE = re.compile(r"(?<=[.!?])[,;:]+(?=[ \t\n])|(?<=\.)[!?]+(?=[ \t\n]|\Z)|(?<=[!?])[,;]+(?=[ \t\n])")
_DOLLAR_CODE_RE = re.compile(r"\bUS(?:D[ \t]?|\$)(?=\d)")
_DOLLAR_CODE_AFTER_RE = re.compile(r"(?<![\w.,$])(\d[\d,]*(?:\.\d+)?)[ \t]?USD\b")
_EMOJI_BETWEEN_DIGITS_RE = re.compile("(?<=\\d)[\U0001f300-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u25a0-\u25ff\u200d\ufe0f]++(?=\\d)")
# An opening tag named for an answer ("<final_answer>", "<result>", "<final>"), read as its label.
_ANSWER_TAG_NAME_RE = re.compile(r"<[A-Za-z_]*(?:answer|final|result)[A-Za-z_]*[\s>]", re.IGNORECASE)


def _markup_to_space(m: re.Match[str], first_end: int = -1, mark: str = "", opening: int = -1,
                     tag_labels: bool = False) -> str:
    words = m.group("words")
    if words is None:
        # Only the first end of reasoning ends it: what follows is the answer, and a later
        # stray "</think>" does not hide the values before it ("</think>**2**</think>\boxed{7}").
        if m.start() == opening and mark:
            return "\n" + REASONING_START_MARK
        if (mark or tag_labels) and _ANSWER_TAG_NAME_RE.match(m.group(0)):
            return "\nAnswer: "  # "<final_answer>(a+3)(b+2)</final_answer>" commits as a label does
        return "\n" + mark if m.start() == first_end else " "
    return f" {words} "


def read_visible(text: str, *, tex_comments: bool = False, mark_reasoning_end: bool = False,
                 emoji_as_space: bool = False, numerals: bool = False,
                 tag_labels: bool = False) -> tuple[str, str | None]:
    """``(visible, hidden)``: what a reader of the rendered ``text`` sees, normalised for
    reading (module doc), and the first value hidden from view (a digit or a box in content
    that does not render), or None. A reward refuses a completion that hides a value: what
    renders differs between viewers (``\\begin{comment}`` shows in markdown), so a hidden
    value is an alternative whose visibility cannot be told. ``tex_comments=True`` hides
    a TeX ``%`` comment to the end of its line; by default ``%`` is a character (completions
    are mostly plain text, where "multiply by 100% to ..." is no comment).
    ``mark_reasoning_end=True`` follows the line end that the first end of reasoning
    (``</think>``) reads as with ``REASONING_END_MARK``, so that a reader can split the working
    from the answer there. ``emoji_as_space=True`` reads a pictograph as a space (tone after an
    answer: "The answer is 5. \U0001f60a"), except those that name a number (``NUMBER_EMOJI``);
    the format reward keeps them as text outside its tags. ``numerals=True`` reads the numerals
    no digit class matches as digits where they stand as a number (``⁸``, ``⓭``, ``一五三``:
    ``verifiers.numeral_forms``). A tag named for an answer (``<final>``, ``<Answer>``; not
    ``<answer>`` itself) reads as the label ``Answer:`` on a new line with ``mark_reasoning_end``
    or ``tag_labels``."""
    hidden = None
    text = _as_tags(text)
    if not text.isascii():
        chars = set(text)
        if not chars.isdisjoint(_BIDI_CHARS):
            hidden = _bidi_near_value(text)
        if hidden is None and any(0xE0000 <= ord(c) <= 0xE01EF for c in chars):
            hidden = _invisible_payload(text)
        if "\u20e3" in chars:  # a keycap without its selector is its digit: "1\u20e39\u20e3" is 19
            text = _KEYCAP_RE.sub("", text)
        tone = {ord(c): " " for c in chars if _is_tone(ord(c))}
        if tone and emoji_as_space:  # (a pictograph is tone, no value: "The answer is 5. \U0001f60a")
            if _EMOJI_BETWEEN_DIGITS_RE.search(text):
                text = _EMOJI_BETWEEN_DIGITS_RE.sub(" | ", text)  # "1\U0001f60a000" is two numbers, not "1 000"
            text = text.translate(tone)
        if numerals and any("\u2160" <= c <= "\u2188" for c in chars):
            text = roman_numerals_as_digits(text)  # (before NFKC reads "Ⅶ" as the letters "VII")
        # a plain table of the characters present: translate looks each one up in C
        table = {ord(c): _READ_AS[ord(c)] for c in chars if not c.isascii()}
        table = {code: read for code, read in table.items() if read != chr(code)}
        if table:
            text = text.translate(table)
        if any(ord(c) in _CONFUSABLE_TABLE for c in chars):
            text = _read_confusables(text)
        if numerals:
            text = numerals_as_digits(text)
        if not chars.isdisjoint(_DECIMAL_FRACTIONS) and sum(
                text.count(c) for c in _DECIMAL_FRACTIONS) <= MAX_CURRENCY_SIGNS:
            text = _VULGAR_RE.sub(_vulgar_as_decimal, text)  # "#### 2\u00bd" is 2.5
        if not chars.isdisjoint(_DASHES):
            text = _DASH_BEFORE_DIGIT_RE.sub("-", text)
        if not chars.isdisjoint(_CURRENCY_CHARS):
            for sign, (before, as_word, after, word) in _CURRENCY_SUBS.items():
                if 0 < text.count(sign) <= MAX_CURRENCY_SIGNS:
                    text = after.sub(word, before.sub(as_word, text))
    if ("USD" in text or "US$" in text) and text.count("US") <= MAX_CURRENCY_SIGNS:
        text = _DOLLAR_CODE_RE.sub("$", text)  # "USD 13" is "$13", a dollar amount
        text = _DOLLAR_CODE_AFTER_RE.sub(r"$\1", text)  # and so is "13 USD"
    if numerals:
        text = roman_values_as_digits(text)  # ("The result is XVI.")
    if ".," in text or ".;" in text or ".!" in text or "?;" in text or "?," in text or "!;" in text:
        # a run of sentence stops reads as its first: "I got 202., So the answer is 200." ends
        # its sentence at the period, as "I got 202. So ..." does
        text = _STOP_RUN_RE.sub("", text)
    if 0 < text.count("-") <= MAX_GLUED_SIGNS:
        text = _GLUED_SIGN_RE.sub(" -", text)
    if "<" in text and ("<|" in text or "</s>" in text or "<e" in text):
        text, after_end = _end_of_turn(text)
        hidden = hidden or after_end
    if "<" in text and _TAG_OPEN_RE.search(text):  # (GSM8K's "<<4*2=8>>" opens none)
        # "44<!-- -->27", "270<span></span>5" render one number: what draws nothing between
        # two digits reads as nothing, not as a space (a digit inside is a hidden value: below)
        text = _NOTHING_BETWEEN_DIGITS_RE.sub("", text)
    forms = hidden_forms_in(text, tex_comments)
    if forms:
        text, hidden_here = without_hidden(text, forms)
        hidden = hidden or hidden_here
    if hidden is None and "<" in text and "=" in text:
        hidden = attribute_with_value(text)  # '<div answer="12">\\boxed{11}</div>': a value no reader sees
    if _MARKUP_HINT_RE.search(text):
        # "11,\! 111,\! 100" is one number: its spaced separators go before spacing turns to
        # space (else it reads as a list of three)
        text = _SPACED_THOUSANDS_RE.sub("", text)
        end = _REASONING_END_RE.search(text)
        first_end = -1 if end is None else end.start()
        mark = REASONING_END_MARK if mark_reasoning_end else ""
        opening = -1
        if end is not None and mark:  # the block's opening: the last "<think>" before its end
            for opened in _REASONING_OPEN_RE.finditer(text, 0, first_end):
                opening = opened.start()
        text = _MARKUP_RE.sub(lambda m: _markup_to_space(m, first_end, mark, opening, tag_labels), text)
    if 0 < text.count("`") <= MAX_INLINE_CODE_MARKS:
        if "```" in text:  # a fence line and its language name ("```text") draw nothing
            text = _FENCE_LINE_RE.sub("", text)
        text = _INLINE_CODE_RE.sub(r"**\1**", text)
    if "\n " in text or "\n\t" in text:
        # a line of spaces is a blank line, as markdown renders it: it ends a paragraph
        # ("\\boxed{21}\n \n...\n \n\\boxed{12}" is three paragraphs, as with "\n\n", h50)
        text = _BLANK_LINE_RE.sub("\n", text)
    return text, hidden


def visible_text(text: str, *, tex_comments: bool = False) -> str:
    """What a reader of the rendered ``text`` sees, normalised for reading (module doc)."""
    return read_visible(text, tex_comments=tex_comments)[0]


# (grouped: TEX_COMMENT is an alternation, and the comment runs to the line's end after either)
_TEX_COMMENT_RE = re.compile("(?:" + TEX_COMMENT + r")[^\n]*", re.MULTILINE)
_COMMITMENT_RE = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])|####|<answer>|\banswer\b", re.IGNORECASE)


def commented_commitment(text: str) -> str | None:
    """The first TeX ``%`` comment (to the end of its line) that holds a commitment (a box,
    ``####``, ``<answer>``, "answer") or ends the text holding a value, or None. Plain text shows it and LaTeX hides it, so
    what it commits to differs between viewers: a reader refuses it rather than guess
    (``So it is 6.`` then ``% \\boxed{5}``). ``50%`` and ``\\%`` are percent signs.

    >>> commented_commitment("So it is 6.\\n% \\\\boxed{5}"), commented_commitment("#### 50%")
    ('% \\\\boxed{5}', None)
    >>> commented_commitment("So it is 6.% \\\\boxed{5}")  # a comment after text on its line
    '% \\\\boxed{5}'
    """
    if "%" not in text:
        return None
    for m in _TEX_COMMENT_RE.finditer(text):
        # (a value in a comment that ends the text is where the last value is read: "So it
        # is 1. % x = 0" shows 0 as plain text, 1 as LaTeX)
        last = not text[m.end() :].strip() and any(c.isdigit() for c in m.group())
        if last or _COMMITMENT_RE.search(m.group()):
            return m.group().strip()[:60]
    return None
