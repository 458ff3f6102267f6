r"""Answer forms the math comparison reads before any parser: choices, assignments, "or" lists,
spacing between digits, word answers, Unicode math.

Each function is pure string work in linear time (no sympy), used by ``verifiers.math_compare._compare``.

- **Choices.** A multiple-choice letter is a choice, not a symbol: ``C``, ``(C)``, ``\text{(C)}``
  and ``\textbf{(C)}`` are the same answer; ``C^1`` or ``c`` is not (sympy reads ``C^1`` as
  ``C``, and a bare lower-case ``c`` is another symbol).
- **Assignments.** ``x = 10,\!080`` states the value 10080: against a gold with no ``=``, the
  part after a leading ``<variable> =`` is the answer (``(x, y) = (-1, 3)`` is ``(-1, 3)``).
- **"or" lists.** Where the gold holds several values (a comma list or ``\pm``), "or"/"and"
  between the prediction's items separates a solution set (``x=1 \text{ or } x=-2`` is
  ``1, -2``). Against a single-value gold the same "or" is a hedge and scores 0: that rule
  lives with the hedge checks in ``verifiers.math``/``verifiers.math_extract``, and this one
  only runs when the gold has several values.
- **Digits apart.** ``2\quad 5`` is two numbers, not 25: spacing between digits is a
  thousands separator only before a group of exactly three digits (``1\,000``, ``10,\!080``).
- **Numerals side by side.** A whole number just before a proper fraction of digits is a
  mixed number when it is the whole answer (``3\frac{1}{2}`` is 7/2); any other number or
  fraction of digits beside a fraction of digits (``5 \frac{2}{2}``, ``0 \frac{1}{2}``,
  ``2.5\frac{1}{2}``, ``\frac{1}{2} 3``, ``\frac{1}{2}\frac{1}{2}``, ``3\frac{1}{2} + 1``)
  is two values: the parsers would read a product, and a product with 1 or 0 hides the other
  value.
- **Words.** A word answer (``Monday``, ``\text{even}``) compares without case; symbols never
  do (``R`` is not ``r``, ``\Pi`` is not ``\pi``).
"""

from __future__ import annotations

import math
import re

__all__ = [
    "as_solution_list",
    "choice_letter",
    "digits_apart",
    "numerals_side_by_side",
    "drop_assignment",
    "labelled_values",
    "latex_from_unicode",
    "split_top_level",
    "symbolic_power",
    "words_key",
]

_WRAP_RE = re.compile(r"\\(?:text|textbf|textrm|textit|mathrm|mathbf|mbox)\s*\{([^{}]*)\}")
# "(C)", "(c)" and "C)" are marked; a bare capital is a choice unmarked.
_CHOICE_RE = re.compile(r"\(\s*([A-Za-z])\s*\)|([A-Z])\s*\)|([A-Z])")


def _unwrap(text: str) -> tuple[str, bool]:
    """``text`` without ``\\text{}``-like wrappers, ``$``, spaces and a final period; and
    whether any wrapper was there."""
    out, wrapped = text, False
    for _ in range(3):  # \textbf{\text{(C)}}: a few levels, bounded
        out, n = _WRAP_RE.subn(r"\1", out)
        wrapped |= n > 0
        if n == 0:
            break
    out = re.sub(r"\s+|\$|\\[,;:! ]", "", out).rstrip(".")
    return out, wrapped


def choice_letter(text: str) -> tuple[str, bool] | None:
    r"""``(letter, marked)`` when ``text`` is a multiple-choice answer, else None. ``marked``:
    written ``(C)`` or inside ``\text{}``; a bare upper-case letter is a choice but unmarked.

    >>> choice_letter(r"\textbf{(C)}"), choice_letter("C)"), choice_letter("C"), choice_letter("C^1"), choice_letter("c")
    (('C', True), ('C', True), ('C', False), None, None)
    """
    body, wrapped = _unwrap(text)
    m = _CHOICE_RE.fullmatch(body)
    if m is None:
        return None
    if m.group(1) or m.group(2):
        return (m.group(1) or m.group(2)).upper(), True
    return m.group(3), wrapped


_ASSIGN_RE = re.compile(
    # (not "\not": "\not= 5" says the value is not 5)
    r"\s*(?:[A-Za-z](?:_\{?\w{1,3}\}?)?|\\(?!not(?![a-zA-Z]))[a-zA-Z]+|\((?:\s*[A-Za-z]\s*,)+\s*[A-Za-z]\s*\))"
    r"\s*=\s*"
)


def drop_assignment(text: str) -> str:
    r"""The value of ``x = value`` / ``(x, y) = (..)`` (one leading variable, one ``=``);
    ``text`` unchanged otherwise.

    >>> drop_assignment(r"x = 10,\!080"), drop_assignment("(x, y) = (-1, 3)"), drop_assignment("y = 2x")
    ('10,\\!080', '(-1, 3)', '2x')
    >>> drop_assignment("x + y = 3")
    'x + y = 3'
    """
    if text.count("=") != 1 or re.search(r"[<>]|\\[lg]e", text):
        return text
    m = _ASSIGN_RE.match(text)
    if m is None:
        return text
    value = text[m.end() :].strip()
    return value or text


# Any relation but "=" (or "=" inside another: ":=", "==", "<=") makes no chain of equalities.
_NOT_A_CHAIN_RE = re.compile(
    r"[<>!:=]=|=[=<>]|\\(?:[lg]eq?|neq?|approx|simeq|sim|equiv|cong|propto|to|mapsto)(?![a-zA-Z])"
    r"|[<>\u2264\u2265\u2260\u2248]"
)


def equality_chain(text: str) -> list[str] | None:
    r"""The sides of ``A = B (= C ...)`` at the top level of ``text`` (at least two, none
    empty), the first dropped when it is a variable being assigned (``x = 5 + 22 = 27``); None
    when ``text`` holds no such chain or another relation.

    >>> equality_chain(r"\frac{1}{8} = 0.125"), equality_chain("x = 5 + 22 = 27")
    (['\\frac{1}{8}', '0.125'], ['5 + 22', '27'])
    >>> equality_chain("x \\le 5 = y"), equality_chain("f(x=1)"), equality_chain("5")
    (None, None, None)
    """
    if "=" not in text or _NOT_A_CHAIN_RE.search(text) or len(split_top_level(text)) > 1:
        return None  # ("x = 2, y = 3" is a list of assignments)
    sides = split_top_level(text, "=")
    if len(sides) < 2 or not all(sides):
        return None
    if len(sides) > 2 and _ASSIGN_RE.fullmatch(sides[0] + " = "):
        sides = sides[1:]  # "x = 5 + 22 = 27": x is named, 5 + 22 and 27 are its value
    return sides


_OR_RE = re.compile(
    # No leading \s*: a search that starts with one is quadratic on a long run of spaces.
    r"\\text\{\s*(?:or|and)\s*\}|\bor\b|\band\b|\\lor\b|\\vee\b"
)


def as_solution_list(text: str) -> str | None:
    r"""``text`` as a comma list when it joins assignments or values with "or"/"and" (or lists
    ``x = a, x = b``), each item's ``x =`` dropped; None when it is no such list or the items
    assign different variables.

    >>> as_solution_list(r"x=1 \text{ or } x=-2"), as_solution_list("x = 3, x = -3")
    ('1, -2', '3, -3')
    >>> as_solution_list(r"x = 1 \text{ or } y = 2") is None
    True
    """
    if _OR_RE.search(text):
        items = _OR_RE.split(text)
    elif "=" in text and "," in text:
        items = text.split(",")
    else:
        return None
    items = [item.strip() for item in items]
    if len(items) < 2 or any(not item for item in items):
        return None
    names = set()
    values = []
    for item in items:
        if "=" in item:
            name, _, value = item.partition("=")
            if "=" in value or not value.strip():
                return None
            names.add(name.strip())
            values.append(value.strip())
        else:
            values.append(item)
    if len(names) > 1 or any(not re.fullmatch(r"[A-Za-z](?:_\{?\w{1,3}\}?)?", n) for n in names):
        return None
    return ", ".join(values)


# Spacing between two digits; the backslash of a spacing command must not be the second half of
# a row break "\\".
_SPACING = r"(?:\s|(?<!\\)\\[,;:! ]|\\q?quad(?![a-zA-Z])|~|\{,\}|,\\!)+"
# Matched as whole runs (nothing after the run to backtrack over: linear on 1 MB of spaces).
_SPACING_RUN_RE = re.compile(_SPACING)
_THOUSANDS_GAPS = ("", r"\,", r"\!", "{,}", r",\!", r"\ ")


def digits_apart(text: str) -> str | None:
    r"""The first spacing that separates two digits without being a thousands separator
    (``2\quad 5``, ``12 34``), or None.

    >>> digits_apart(r"2\quad 5"), digits_apart(r"10,\!080"), digits_apart(r"1\,000\,000")
    ('\\quad ', None, None)
    """
    for m in _SPACING_RUN_RE.finditer(text):
        start, end = m.span()
        if not (start > 0 and text[start - 1].isdigit() and end < len(text)):
            continue
        if not text[end].isdigit():
            continue
        digits_start = start
        while digits_start > 0 and text[digits_start - 1].isdigit():
            digits_start -= 1
        if digits_start > 0 and text[digits_start - 1] == "_":
            continue  # \log_2 8: the first digits are a subscript
        following = re.match(r"\d{1,4}", text[end : end + 4])
        group = following.group(0) if following else ""
        if (
            len(group) == 3
            and _gap(m.group(0)) in _THOUSANDS_GAPS
            and _leads_group(text[digits_start:start], joined=_joined_before(text, digits_start))
        ):
            continue
        return m.group(0)
    return None


def _leads_group(run: str, *, joined: bool) -> bool:
    """Whether a digit run can stand before a thousands group: a first group of 1-3 digits
    with no leading zero ("0 100" is two numbers), or a 3-digit group after another."""
    return len(run) == 3 if joined else re.fullmatch(r"[1-9]\d{0,2}", run) is not None


def _joined_before(text: str, digits_start: int) -> bool:
    """Whether the digit run at ``digits_start`` follows a thousands gap after digits."""
    m = re.search(r"\d(?:\\[,! ]|\{,\}|,\\!|\s)\Z", text[max(0, digits_start - 4) : digits_start])
    return m is not None


def _gap(spacing: str) -> str:
    # "\ " is a control space: stripping its space would leave a lone backslash
    return r"\ " if spacing.strip() == "\\" else spacing.strip()


def join_thousands(text: str) -> str:
    r"""``text`` with every thousands separator between digit groups removed (``2\ 500``,
    ``1\,000\,000``, ``5 000`` read as the numbers they group), so every comparison path
    reads one value; a parser would otherwise multiply the groups (``2\ 500`` as 1000).

    >>> join_thousands(r"2\ 500"), join_thousands(r"1\,000\,000"), join_thousands("12 34")
    ('2500', '1000000', '12 34')
    """
    if not any(c.isdigit() for c in text):
        return text
    pieces, at = [], 0
    for m in _SPACING_RUN_RE.finditer(text):
        start, end = m.span()
        if not (start > 0 and text[start - 1].isdigit() and end < len(text)):
            continue
        if re.match(r"\d{3}(?!\d)", text[end : end + 4]) and _gap(m.group(0)) in _THOUSANDS_GAPS:
            digits_start = start
            while digits_start > 0 and text[digits_start - 1].isdigit():
                digits_start -= 1
            if digits_start > 0 and text[digits_start - 1] == "_":
                continue
            if not _leads_group(text[digits_start:start], joined=bool(pieces) and digits_start == at):
                continue
            pieces.append(text[at:start])
            at = end
    return text if not pieces else "".join(pieces) + text[at:]


# A fraction of digits (\frac{2}{2}, \dfrac{-16}{2}, \frac12), and a number not in an exponent
# or subscript (x^2\frac{1}{2} is x^2 times a half). Spacing between is matched as whole runs.
_DIGIT_ARG = r"(?:\{\s*[-+]?\s*\d+(?:\.\d+)?\s*\}|\d)"
_DIGIT_FRAC = rf"\\[dt]?frac\s*{_DIGIT_ARG}\s*{_DIGIT_ARG}"
_NUMERAL = r"(?<![\w.^_\\])(?<!\^\{)(?<!_\{)\d+(?:[.,]\d+)*"
_SIDE_BY_SIDE_RE = re.compile(
    rf"{_NUMERAL}(?:{_SPACING})?(?={_DIGIT_FRAC})|{_DIGIT_FRAC}(?:{_SPACING})?(?=\d|\\[dt]?frac)"
)


def numerals_side_by_side(text: str) -> str | None:
    r"""The first number or fraction of digits set just before a fraction of digits, or a
    fraction of digits just before a number (two values the parsers would multiply); None
    if there is none. The caller reads a whole answer that is a mixed number first
    (``exact_numbers.parse_number``: ``3\frac{1}{2}`` is 7/2), so a match is never one.

    >>> numerals_side_by_side(r"0 \frac{2}{2}"), numerals_side_by_side(r"\frac{1}{2}3")
    ('0 ', '\\frac{1}{2}')
    >>> numerals_side_by_side(r"x^2\frac{1}{2}"), numerals_side_by_side(r"2\frac{\sqrt{3}}{3}")
    (None, None)
    """
    if "frac" not in text:
        return None
    m = _SIDE_BY_SIDE_RE.search(text)
    return None if m is None else m.group(0)


_WORDS_RE = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]{3,})*")


def words_key(text: str) -> str | None:
    r"""A case-free key for a word answer (``Monday``, ``\text{even}``), None for anything else.
    All-capital words are symbols (``ABC`` is a triangle, not ``abc``).

    >>> words_key(r"\text{Monday}"), words_key("monday"), words_key("ABC"), words_key("x")
    ('monday', 'monday', None, None)
    """
    body = _WRAP_RE.sub(r"\1", text).strip().rstrip(".")
    body = re.sub(r"\s+", " ", body)
    if not _WORDS_RE.fullmatch(body) or any(w.isupper() for w in body.split()):
        return None
    return body.lower()


# Unicode spellings of LaTeX, as models print them.
_UNICODE = {
    "½": r"\frac{1}{2}",
    "⅓": r"\frac{1}{3}",
    "⅔": r"\frac{2}{3}",
    "¼": r"\frac{1}{4}",
    "¾": r"\frac{3}{4}",
    "⅕": r"\frac{1}{5}",
    "⅖": r"\frac{2}{5}",
    "⅗": r"\frac{3}{5}",
    "⅘": r"\frac{4}{5}",
    "⅙": r"\frac{1}{6}",
    "⅚": r"\frac{5}{6}",
    "⅛": r"\frac{1}{8}",
    "⅜": r"\frac{3}{8}",
    "⅝": r"\frac{5}{8}",
    "⅞": r"\frac{7}{8}",
    "π": r"\pi ",
    "∞": r"\infty ",
    "×": r"\times ",
    "·": r"\cdot ",
    "⋅": r"\cdot ",
    "÷": r"\div ",
    "−": "-",
    "≤": r"\leq ",
    "≥": r"\geq ",
    "≠": r"\neq ",
    "±": r"\pm ",
    "°": r"^\circ",
    "∅": r"\emptyset ",
    "∪": r"\cup ",
    "ℝ": r"\mathbb{R}",
    "ℤ": r"\mathbb{Z}",
    "ℕ": r"\mathbb{N}",
    "ℚ": r"\mathbb{Q}",
    "ℂ": r"\mathbb{C}",
    "≈": r"\approx ",
    "∈": r"\in ",
    "∩": r"\cap ",
    "∖": r"\setminus ",
    "→": r"\to ",
    "⌊": r"\lfloor ",
    "⌋": r"\rfloor ",
    "⌈": r"\lceil ",
    "⌉": r"\rceil ",
}
# Greek letters as their commands, in code point order (the lower and upper case blocks skip
# one code point before sigma): "2θ" is 2\theta, π the constant \pi, and "Φ" a free symbol
# as \Phi is.
_GREEK = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi",
    "psi", "omega",
]  # fmt: skip
_UNICODE.update({chr(0x3B1 + k): f"\\{name} " for k, name in enumerate(_GREEK) if k < 17})
_UNICODE.update({chr(0x3C3 + k): f"\\{name} " for k, name in enumerate(_GREEK[17:])})
_UNICODE.update({chr(0x391 + k): f"\\{name.capitalize()} " for k, name in enumerate(_GREEK)
                 if k < 17})
_UNICODE.update({chr(0x3A3 + k): f"\\{name.capitalize()} " for k, name in enumerate(_GREEK[17:])})
_UNICODE_RE = re.compile("|".join(map(re.escape, _UNICODE)))
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿ", "0123456789+-()n")
_SUPERSCRIPT_RE = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿ]+")
# √2, √{2}, √(x+1), ∛5: the radicand is a number, a letter, or a bracketed group.
_ROOT_RE = re.compile(r"([√∛∜])\s*(\d+(?:\.\d+)?|[A-Za-z]|\\[a-zA-Z]+|\{[^{}]*\}|\([^()]*\))")
_ROOT_INDEX = {"√": "", "∛": "[3]", "∜": "[4]"}


def latex_from_unicode(text: str) -> str:
    r"""``text`` with Unicode math (``2√2``, ``½``, ``π``, ``x²``, ``≤``) written as LaTeX.

    >>> latex_from_unicode("2√2"), latex_from_unicode("1½"), latex_from_unicode("√(x+1)")
    ('2\\sqrt{2}', '1\\frac{1}{2}', '\\sqrt{x+1}')
    """
    if text.isascii():
        return text

    def root(m: re.Match[str]) -> str:
        radicand = m.group(2)
        if radicand[0] in "{(":
            radicand = radicand[1:-1]
        return rf"\sqrt{_ROOT_INDEX[m.group(1)]}{{{radicand}}}"

    # A run of superscripts is one exponent: 2⁵ is 2^{5}, 10¹² is 10^{12}.
    text = _SUPERSCRIPT_RE.sub(lambda m: "^{" + m.group(0).translate(_SUPERSCRIPTS) + "}", text)
    text = _UNICODE_RE.sub(lambda m: _UNICODE[m.group(0)], text)
    return _ROOT_RE.sub(root, text)


_CLOSE = {")": "(", "]": "[", "}": "{"}


def split_top_level(text: str, separators: str = ",;") -> list[str]:
    r"""The items of a comma or semicolon list (or of other ``separators``) at the top level of
    ``text`` (commas inside brackets and thousands separators such as ``10,080`` or
    ``10,\!080`` do not split).

    >>> split_top_level("(2, 2), (6, 2)"), split_top_level("10,080"), split_top_level("[1,2), 3")
    (['(2, 2)', '(6, 2)'], ['10,080'], ['[1,2)', '3'])
    """
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(depth - 1, 0)
        elif c in separators and depth == 0:
            if c == "," and _THOUSANDS_AFTER_RE.match(text, i + 1) and text[i - 1 : i].isdigit():
                continue
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    return items


_THOUSANDS_AFTER_RE = re.compile(r"(?:\\!|\{\})?\d{3}(?!\d)")
# A label: letters, commands (\angle, \overline{AB}), subscripts, arguments "(x)", primes, a
# ratio colon; no operator or bare digit, so "x + y = 3" and "2x = 6" are equations, not labels.
_LABEL_RE = re.compile(
    r"\s*(?:[A-Za-z]|\\[a-zA-Z]+(?:\{[A-Za-z ]*\})?|_\{[^{}=]*\}|_\w|\([^()=]*\)|'|:|\s)+?\s*="
    r"\s*(?P<value>[^=<>]+?)\s*"
)


def labelled_values(gold: str) -> list[str] | None:
    r"""The values of a gold whose every item is ``label = value`` (``S_{MBCN}:S=7:32``,
    ``f(x)=1``, ``AB=4, CD=5``), in order; None when some item has no label, a label repeats
    (``x=1, x=2`` is a solution set, not a labelled list) or a value holds a relation.

    >>> labelled_values("S_{MBCN}:S=7:32"), labelled_values("AB=4, CD=5"), labelled_values("x+y=3")
    (['7:32'], ['4', '5'], None)
    """
    if "=" not in gold or re.search(r"[<>]|\\[lg]eq?(?![a-z])|\\neq?", gold):
        return None
    values, labels = [], set()
    for item in split_top_level(gold):
        m = _LABEL_RE.fullmatch(item)
        if m is None:
            return None
        label = re.sub(r"\s+", "", item[: m.start("value")].rstrip().rstrip("="))
        if label in labels:
            return None
        labels.add(label)
        values.append(m.group("value"))
    return values


_POWER_RE = re.compile(r"\^\s*\{?\s*(\d{1,6})\s*\}?")
_MAX_EXPANDED_TERMS = 2_000
# sympy adds a numeric series term by term: 10^4 terms of 1/(k(k+1)) take it over 5 s.
_SERIES_RE = re.compile(r"\\(?:sum|prod)\s*_\s*(?:\{[^{}]*\}|\S)\s*\^\s*\{?\s*(\d{1,9})")
_MAX_SERIES_TERMS = 1_000


def symbolic_power(text: str) -> str | None:
    r"""Why sympy would run away on ``text``, or None: a power of a sum of variables whose
    expansion has more than ``_MAX_EXPANDED_TERMS`` terms (``(a+b+c+d+e)^{9999}``: C(10003, 4)
    terms), or a sum or product with a numeric upper bound above ``_MAX_SERIES_TERMS``.
    ``x^{9999}``, ``(1+\sqrt{2})^{50}`` or ``\sum_{k=1}^{n}`` is fine.

    >>> symbolic_power("(a+b+c+d+e)^{9999}"), symbolic_power("(x+1)^{2} + x^{9999}")
    ('power of a sum with 4.17e+14 terms', None)
    >>> symbolic_power(r"\sum_{k=1}^{9999} \frac{1}{k(k+1)}"), symbolic_power(r"\sum_{k=1}^{n} k")
    ('a sum or product of 9999 terms', None)
    """
    for m in _SERIES_RE.finditer(text):
        if int(m.group(1)) > _MAX_SERIES_TERMS:
            return f"a sum or product of {m.group(1)} terms"
    for m in _POWER_RE.finditer(text):
        base = _base_before(text, m.start())
        if not re.search(r"[A-Za-z]", re.sub(r"\\[a-zA-Z]+", "", base)):
            continue
        summands = len(re.findall(r"(?<=[^+\-(\[{\s])\s*[+\-]", base)) + 1
        terms = math.comb(int(m.group(1)) + summands - 1, summands - 1)
        if terms > _MAX_EXPANDED_TERMS:
            return f"power of a sum with {terms:.3g} terms"
    return None


def _base_before(text: str, caret: int) -> str:
    """The base of the power whose ``^`` is at ``caret``: a bracketed group or one token."""
    i = caret - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    if i < 0:
        return ""
    if text[i] in _CLOSE:
        depth = 0
        for j in range(i, -1, -1):
            if text[j] in _CLOSE:
                depth += 1
            elif text[j] in "([{":
                depth -= 1
                if depth == 0:
                    return text[j : i + 1]
        return text[: i + 1]
    return text[i]
