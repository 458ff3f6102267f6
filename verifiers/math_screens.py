r"""Screens the math comparison runs on two bare answers before any parser: how many items a
list holds, a numeral in another base, a token no final answer holds, an exact answer with its
rounded value, a long decimal printout of a constant, and shapes that can never be equal.

Pure string and mpmath work, linear in the answer (at most ``MAX_ANSWER_CHARS`` long when
``verifiers.math_compare._compare`` calls), no sympy. What each screen lets through or refuses is
stated in its docstring; ``verifiers.math`` says in which order they run.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from verifiers.exact_numbers import parse_quantity
from verifiers.latex_numeric import evaluate_constant
from verifiers.unit_words import read_words

__all__ = [
    "RELATION_RE",
    "base_numeral",
    "list_items",
    "shape_mismatch",
    "stray_token",
    "unmatched_letter",
    "unit_mismatch",
    "without_checked_approximation",
]

# Tokens no final answer holds unless the gold does: a relation or arrow with nothing on its
# left ("\neq 5", "\to 6"), an approximation, an ellipsis, an invisible \phantom, a "?".
# sympy's parsers skip or drop them and read what remains as the answer.
_STRAY_RE = re.compile(
    # "'": a prime (5' is five feet or minutes, f' a derivative) the gold must also hold
    r"\?|'|\\(?:[hv]?phantom|neq|ne|not|neg|lnot|to|gets|mapsto|implies|impliedby|iff|"
    r"(?:long)?(?:right|left|leftright)arrow|(?:Long)?(?:Right|Left|Leftright)arrow|"
    r"wedge|land|forall|exists|therefore|because|approx|sim|simeq|propto|"
    r"[lcvd]?dots)(?![a-zA-Z])"
)
# Spellings of one symbol: "x \ne 5" against a gold "x \neq 5" is no stray token.
_STRAY_ALIASES = {
    r"\ne": r"\neq",
    r"\to": r"\rightarrow",
    r"\gets": r"\leftarrow",
    r"\land": r"\wedge",
    r"\lnot": r"\neg",
    r"\implies": r"\Longrightarrow",
    r"\impliedby": r"\Longleftarrow",
    r"\dots": r"\ldots",
}

_BASE_RE = re.compile(r"\(?([0-9A-Za-z]{1,64})\)?_\s*\{?\s*\(?(\d{1,2})\)?\s*\}?")
# Brackets, and list separators: a comma or semicolon other than a thousands separator.
# Spacing commands (\, \; \!) and escaped braces are matched first so that they are skipped.
_SEPARATOR_RE = re.compile(r"\\[,;:! {}]|[()\[\]{}]|;|(?<!\d),|,(?!(?:\\!\s*)?\d{3}(?!\d))")

_TEXT_ARG_RE = re.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mbox)\{([^{}]*)\}")
_TEXT_OK = {
    "",
    "and",
    ",",
    "or",
}  # "or": verifiers.math refuses it as a hedge unless the gold has it


def list_items(text: str) -> int:
    """How many items a comma/semicolon list at the top level of ``text`` has; commas inside
    brackets, and a comma before exactly three digits (``1,000``, ``1,\\!000``), are not
    separators. 1 for anything that holds no separator anywhere; 0 (never "one item") when some
    bracket holds one, so that ``(1, 2)`` is no single value either."""
    depth, items, any_separator = 0, 1, False
    for m in _SEPARATOR_RE.finditer(text):
        tok = m.group(0)
        if tok in ("\\{", "\\}"):
            tok = tok[1]
        elif tok[0] == "\\":
            continue
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth = max(depth - 1, 0)
        else:
            any_separator = True
            items += depth == 0
    return items if items > 1 or not any_separator else 0


def base_numeral(text: str) -> tuple[str, int] | None:
    """``(digits, base)`` of a numeral with a base subscript (``1011_2``, ``(A3)_{16}``), the
    digits upper-cased without leading zeros; None for anything else (``x_1``, ``a_n``)."""
    m = _BASE_RE.fullmatch(text.strip())
    if m is None:
        return None
    digits, base = m.group(1).upper().lstrip("0") or "0", int(m.group(2))
    if not 2 <= base <= 36 or not (any(c.isdigit() for c in digits) or base > 10):
        return None
    if any(int(c, 36) >= base for c in digits):
        return None
    return digits, base


def impossible_numeral(text: str) -> bool:
    """Whether ``text`` is decimal digits under a base subscript that they do not fit
    (``27_7``, ``4_{4}``, ``52_0``): a numeral of no base, so no number, never the digits
    without their subscript. ``x_1`` and ``a_n`` are no numerals at all.

    >>> impossible_numeral("27_{7}"), impossible_numeral("26_7"), impossible_numeral("x_1")
    (True, False, False)
    """
    m = _BASE_RE.fullmatch(text.strip())
    if m is None or not m.group(1).isdigit():
        return False
    base = int(m.group(2))
    return not 2 <= base <= 36 or any(int(c) >= base for c in m.group(1))


_UNIT_RE = re.compile(r"\\(?:text|mbox|mathrm|textrm)\s*\{([^{}]*)\}\s*(\^\s*(?:\{[^{}]*\}|\S))?")
# A unit word after a side's number with no wrapper ("9368 m", "5 cm^2"), ending the side.
_BARE_UNIT_RE = re.compile(r"\d[ \t]*([A-Za-z]{1,12}(?:/[A-Za-z]{1,6})?)[ \t]*(\^[ \t]*(?:\{[^{}]*\}|\S))?[ \t.]*\Z")


def _unit_name(words: str, power: str | None) -> str:
    """A unit as one name: its canonical spelling where it is a known unit ("centimeters" and
    "cm" are one), then its power ("cm^2")."""
    words = words.strip()
    quantity = parse_quantity(f"1 {words}") if words else None
    name = quantity[1] if quantity is not None and quantity[1] else words.lower().rstrip("s")  # ("marbles", "marble")
    return re.sub(r"[\s{}]", "", name + (power or ""))


def _units(text: str) -> list[str]:
    """The units ``text`` writes, by name (wrapped, or a known unit word after its number)."""
    named = [_unit_name(m.group(1), m.group(2)) for m in _UNIT_RE.finditer(text)]
    bare = None if named else _BARE_UNIT_RE.search(text)
    if bare is not None and parse_quantity(f"1 {bare.group(1)}") is not None:  # a unit, or a count noun ("917 marbles")
        named = [_unit_name(bare.group(1), bare.group(2))]
    if not named and "\\$" in text:
        named = ["dollar"]  # "\$28" names dollars (not "28\text{ dollars}^2")
    return sorted(named)


def names_unit(gold: str) -> bool:
    r"""Whether a gold answer names a unit (``12 m``, ``5	ext{ cm}^2``, ``\$3``, ``40\%``,
    ``30^\circ``): only then is a unit written beside the prediction's value compared, since a
    unit the gold leaves out is dressing (``oxed{4}`` inches per second, for a gold of 4).

    >>> names_unit("12 m"), names_unit(r"\$3"), names_unit("4"), names_unit(r"12\pi")
    (True, True, False, False)
    """
    if any(mark in gold for mark in ("%", "\\circ", "\\degree", "\u00b0", "$")):
        return True
    quantity = parse_quantity(gold)
    return bool(quantity is not None and quantity[1]) or bool(_units(gold))


_SIGNS = {"\\%": ("%", "percent", "per cent"), "^\\circ": ("\\circ", "\\degree", "\u00b0", "degree")}
_SIGN_UNITS = ("\\%", "^\\circ", "\\text{ times}", "\\text{ bps}", "\\text{ permille}")


def sign_mismatch(gold: str, unit: str) -> bool:
    r"""Whether the unit written after a box (``unit_after_box``'s LaTeX) and a gold that names
    a unit disagree on a sign: a gold in percent or degrees takes that sign alone (``23
    bps``, ``81`` per mille and ``3 cm^2`` are not ``23\%``), and a sign (percent, degrees,
    bps, times) is no gold's other unit (``54^\circ`` is not ``54`` marbles).

    >>> sign_mismatch(r"81\%", r"	ext{ permille}"), sign_mismatch(r"81\%", r"\%")
    (True, False)
    >>> sign_mismatch("54 marbles", r"^\circ"), sign_mismatch("12 m", r"	ext{ km}")
    (True, False)
    """
    if re.fullmatch(r"\\text\{ (?i:deg(?:rees?)?)\}", unit):
        unit = "^\\circ"  # "\boxed{30} degrees"
    signed = [sign for sign, marks in _SIGNS.items() if any(m in gold.lower() for m in marks)]
    if signed:
        return unit not in signed
    return unit in _SIGN_UNITS


def unit_mismatch(gold: str, pred: str) -> str | None:
    r"""The prediction's units when both sides write units (in ``\text{}``-like wrappers, or a
    known unit word after the number) and they differ (``15\mbox{ cm}^3`` for ``15\mbox{ cm}^2``,
    ``9368\text{ m}^2`` for ``9368 m``); None when they agree or a side writes none (a unit the
    gold names and the prediction leaves out is dressing).

    >>> unit_mismatch(r"15\mbox{ cm}^2", r"15\text{cm}^3"), unit_mismatch(r"15\mbox{ cm}^2", "15")
    ('cm^3', None)
    >>> unit_mismatch("9368 m", r"9368\text{ m}^2"), unit_mismatch("5 cm^2", r"5\text{ centimeters}^2")
    ('m^2', None)
    >>> unit_mismatch(r"\$28", r"28\text{ dollars}^2"), unit_mismatch(r"\$28", r"28\text{ dollars}")
    ('dollar^2', None)
    """

    g, p = _units(gold), _units(pred)
    if g and p and g != p:
        return " ".join(p)
    return None


def stray_token(gold: str, pred: str) -> str | None:
    """What in ``pred`` makes it no final answer (and is not in ``gold``), or None."""
    gold_tokens = {_STRAY_ALIASES.get(t, t) for t in _STRAY_RE.findall(gold)}
    for m in _STRAY_RE.finditer(pred):
        if _STRAY_ALIASES.get(m.group(0), m.group(0)) not in gold_tokens:
            return m.group(0)
    # A character no reader maps to LaTeX (``math_forms.latex_from_unicode`` ran first) is no
    # part of an answer the parsers read: "16 ≈ 1000" must not reach them as "16".
    if not pred.isascii():
        other = next((c for c in pred if not c.isascii() and c not in gold), None)
        if other is not None:
            return other
    # Words in \text{} are a number, a unit, a count noun, or text the gold also holds:
    # "\text{not } 5" and "5 \text{(approx)}" are no answers, though the parsers read both as 5.
    gold_lower = gold.lower()
    for m in _TEXT_ARG_RE.finditer(pred):
        words = m.group(1).strip()
        if (
            words.lower() in _TEXT_OK
            or len(words) == 1
            or words.lower() in gold_lower
            or read_words(words) is not None
            or parse_quantity(words) is not None  # \text{12 cm}
        ):
            continue
        return m.group(0)
    return None


def _fraction(value: Any) -> Fraction:
    """An mpmath number as the exact binary fraction it holds."""
    man, exp = value.man_exp
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


_APPROX_RE = re.compile(r"(.{1,300}?)\s*\\approx\s*(-?\d{1,40}(?:\.\d{1,40})?)")


def without_checked_approximation(pred: str) -> str:
    """``\\frac{\\sqrt{3}}{3} \\approx 0.577`` is the exact answer with its decimal value: when
    the decimal is the constant's value rounded at its last digit, the exact part is
    the answer. Any other ``\\approx`` stays, and the stray-token screen refuses it."""
    m = _APPROX_RE.fullmatch(pred.strip())
    if m is None or "\\approx" in m.group(1):
        return pred
    exact = evaluate_constant(m.group(1))
    if exact is None:
        return pred
    shown = m.group(2)
    decimals = len(shown.partition(".")[2])
    if abs(Fraction(shown) - _fraction(exact)) <= Fraction(1, 2 * 10**decimals):
        return m.group(1)
    return pred


_MULTI_RE = re.compile(
    r"(?<!\d),|,(?!\d{3}(?!\d))|\\begin\{[pbvB]?matrix\}|\\cup\b|\\in\b|\\infty\b"
)
# An infinite bound of a sum, product, integral or limit is no interval's end: the value is one
# number (\sum_{k=1}^{\infty} \frac{1}{k^2} is \frac{\pi^2}{6}).
_BOUNDED_RE = re.compile(r"\\(?:sum|prod|int|iint|oint|lim)(?![a-zA-Z])")
_COMMAND_RE = re.compile(r"\\(?:text|mathrm|textbf|mbox|operatorname)\{[^{}]*\}|\\[a-zA-Z]+")
_COMMAND_NAME_RE = re.compile(r"\\[a-zA-Z]+")
_ALGEBRAIC_COMMANDS = {
    "\\frac",
    "\\dfrac",
    "\\tfrac",
    "\\sqrt",
    "\\cdot",
    "\\times",
    "\\left",
    "\\right",
    "\\pi",
}
_VARIABLE_RE = re.compile(r"[a-df-hj-zA-Z]")  # letters other than e (Euler) and i (imaginary)


RELATION_RE = re.compile(r"[<>]|\\(?:[lg]eq?|[lg]t|in|ni|subset(?:eq)?|cup|cap|setminus)(?![a-z])")


def _shape(text: str, is_number: bool) -> str:
    if is_number or evaluate_constant(text) is not None:
        return "constant"
    if RELATION_RE.search(text):
        return "relation"  # "x > 5" is the set (5, \infty): a collection only sympy reads
    multi = _MULTI_RE.search(text)
    if multi and not (multi.group() == "\\infty" and _BOUNDED_RE.search(text)
                      and not _MULTI_RE.search(text.replace("\\infty", " "))):
        return "collection"  # tuples, lists, intervals, sets, matrices
    if (
        "=" not in text
        and _VARIABLE_RE.search(_COMMAND_RE.sub(" ", text))
        and set(_COMMAND_NAME_RE.findall(text)) <= _ALGEBRAIC_COMMANDS
    ):
        # A polynomial or rational expression in variables. Not functions: \sin^2 x +
        # \cos^2 x is the constant 1, and only sympy can tell.
        return "expression"
    return "other"


def shape_mismatch(gold: str, pred: str, gold_is_number: bool, pred_is_number: bool) -> str | None:
    """Why the two answers cannot be equal without parsing them, or None.

    A collection (a tuple, an interval, a set, a matrix) or a condition (``x > 5``, ``x \\in
    [1, 2]``) is never a single value, and a constant never equals an expression in variables; only an expression that cancels to a constant
    (``x - x + 2``) is misjudged, a form no grader's gold takes.
    """
    kinds = {_shape(gold, gold_is_number), _shape(pred, pred_is_number)}
    if kinds in (
        {"constant", "collection"},
        {"constant", "expression"},
        {"collection", "expression"},
        {"constant", "relation"},
        {"expression", "relation"},
    ):
        return " vs ".join(sorted(kinds))
    return None


# Command names and the words of text wrappers are no free letters: "3\pi", "\mathbf{5}",
# "5 \text{ cm}" hold none.
_NOT_LETTERS_RE = re.compile(
    r"\\(?:text\w*|mathrm|mbox|operatorname|mathit|mathsf|mathtt)\s*\{[^{}]*\}|\\+[A-Za-z]+|\\."
)
# i and e written as the constants they are (2i, i^2, e^{3}) are no free letters.
_LETTER_RE = re.compile(r"(?![ie](?=\s*[\^{(])|(?<=[\d{(])[ie])[A-Za-z]")
_ANY_LETTER_RE = re.compile(r"[A-Za-z]")
# A gold with brackets, commas or a relation is an interval, a tuple or a condition.
_NOT_A_CONSTANT_RE = re.compile(r"[,;()\[\]<>=]|\\(?:infty|[gl]eq?|cup|cap)")
# Two values side by side with only a percent sign between: "0% 1.0", "0\% \mathbf{1}".
_JUXTAPOSED_RE = re.compile(
    r"\d(?:\s*\\?%\s*|[ \t]*\n\s*)(?:\\[A-Za-z]+\s*)?\{?\s*[-+]?\.?\d"
    # a value next to a styled value: "132 \mathbf{0}", "776\text{777}", "0.5 \text{-25}"
    r"|\d[\s}]*\\(?:mathbf|textbf|boldsymbol|bm|text|textrm|mathrm|mbox)\s*\{\s*[-+]?\.?\d"
    r"|\\(?:mathbf|textbf|boldsymbol|bm|text|textrm|mathrm|mbox)\s*\{\s*[-+]?[\d.]+\s*\}\s*[-+]?\.?\d"
)


# A Greek letter other than pi is a free symbol, as a Latin one is ("0 \Phi" is no constant).
_GREEK_SYMBOL_RE = re.compile(
    r"\\(?:(?:var)?(?:epsilon|theta|rho|sigma|phi)|alpha|beta|gamma|delta|zeta|eta|iota|kappa|"
    r"lambda|mu|nu|xi|omicron|tau|upsilon|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|"
    r"Upsilon|Phi|Psi|Omega)(?![A-Za-z])"
)


def unmatched_letter(gold: str, pred: str) -> str | None:
    r"""A letter of ``pred`` that a gold with no letter at all does not have, or two values
    side by side: against a constant gold, ``0 A 1`` is no constant (sympy reads ``0*A*1 = 0``:
    a free symbol that multiplies a zero must not vanish) and ``0\% 1.0`` no single value.
    Greek letters (``\alpha``, but not ``\pi``) and letters of any script are letters too."""
    bare_gold = _NOT_LETTERS_RE.sub(" ", gold)
    if (
        _ANY_LETTER_RE.search(bare_gold) is not None
        or _NOT_A_CONSTANT_RE.search(bare_gold)
        or _GREEK_SYMBOL_RE.search(gold)
    ):
        return None
    greek = _GREEK_SYMBOL_RE.search(pred)
    if greek is not None:
        return greek.group(0)
    bare_pred = _NOT_LETTERS_RE.sub(" ", pred)
    m = _LETTER_RE.search(bare_pred)
    if m is not None:
        return m.group(0)
    if not bare_pred.isascii():
        other = next((c for c in bare_pred if c.isalpha() and not c.isascii()), None)
        if other is not None:
            return other
    j = _JUXTAPOSED_RE.search(pred)
    return None if j is None else j.group(0)


# A collective or container noun: "12 dozen eggs", "101 crates of apples", "338 groups of
# people" count the collections, not the gold's own items.
_COLLECTIVES = (
    r"dozens?|pairs?|sets?|groups?|crates?|box(?:es)?|bags?|packs?|packets?|packages?|cartons?|"
    r"cases?|batch(?:es)?|rows?|stacks?|bundles?|trays?|loads?|scores?|teams?|handfuls?|bunch(?:es)?|"
    r"baskets?|buckets?|jars?|bottles?|cans?|sacks?|barrels?|piles?|rolls?|sheets?")
_GOLD_NOUN_RE = re.compile(r"(?<=[\d}\s])([A-Za-z]{3,})\s*$")


def gold_count_noun(gold: str) -> str | None:
    """The word that ends a gold naming its items or unit (``248 eggs``: ``eggs``), or None."""
    noun = _GOLD_NOUN_RE.search(gold.replace("\\text{", " ").replace("}", " ").strip())
    return None if noun is None or parse_quantity(f"1 {noun.group(1)}") is None else noun.group(1)


def collective_for_count(gold: str, said: str) -> str | None:
    r"""The collective or container noun that ``said`` (the answer and the words after it) puts
    before the gold's own count noun, or None: ``248 dozen eggs`` and ``101 crates of apples``
    count collections, not the gold's ``248 eggs`` or ``101 apples``.

    >>> collective_for_count("248 eggs", "248 dozen eggs"), collective_for_count("101 apples", "} crates of apples.")
    ('dozen', 'crates')
    >>> collective_for_count("101 apples", "101 apples"), collective_for_count("12", "12 dozen eggs") is None
    (None, True)
    """
    noun = gold_count_noun(gold)
    if noun is None:
        return None
    stem = noun.lower().rstrip("s")
    m = re.search(rf"\b({_COLLECTIVES})\s+(?:of\s+)?(?:[A-Za-z-]+\s+){{0,2}}{re.escape(stem)}", said, re.IGNORECASE)
    if m is None:  # any "<noun> of <items>" right after the value: "513 busloads of people"
        m = re.match(rf"[^A-Za-z]{{0,12}}\b((?!total\b|all\b|number\b)[A-Za-z]+)\s+of\s+(?:the\s+)?{re.escape(stem)}",
                     said, re.IGNORECASE)
    return None if m is None else m.group(1)
