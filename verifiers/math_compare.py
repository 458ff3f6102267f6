"""The comparator of ``verifiers.math``: a gold and a read answer, exactly where both are exact,
cheapest path first (``exact``, ``string``, ``guard``, ``numeric``, ``symbolic``; the paths and
the answer forms are described in ``verifiers.math``'s docstring). ``_compare`` is the one
entry; ``is_equiv`` its public form for two bare answers."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from typing import Any

from verifiers.answer_values import mark_trailing_ellipsis
from verifiers.deadline import DeadlineExceeded, FunctionRef, WorkerError, run_with_deadline
from verifiers.exact_numbers import (
    MAX_NUMBER_CHARS,
    PERCENT_RE,
    parse_quantity,
    percent_equal,
)
from verifiers.latex_guard import runaway
from verifiers.latex_numeric import compare_constants
from verifiers.math_extract import _clean, last_boxed
from verifiers.math_forms import (
    as_solution_list,
    choice_letter,
    digits_apart,
    drop_assignment,
    equality_chain,
    join_thousands,
    labelled_values,
    latex_from_unicode,
    numerals_side_by_side,
    split_top_level,
    symbolic_power,
    words_key,
)
from verifiers.math_screens import (
    RELATION_RE,
    base_numeral,
    impossible_numeral,
    list_items,
    shape_mismatch,
    stray_token,
    unit_mismatch,
    unmatched_letter,
    without_checked_approximation,
)
from verifiers.spelled_numbers import spelled_value
from verifiers.types import (
    CORRECT,
    HEDGED,
    MALFORMED,
    NO_SIGNAL,
    PARSE_ERROR,
    TIMEOUT,
    WRONG,
)

DEFAULT_TIMEOUT = 5.0  # seconds for the symbolic comparison of one pair
MAX_ANSWER_CHARS = 1_000  # longer extracted answers are not answers; sympy would stall on them

_HEDGE_RE = re.compile(r"(?:\bor\b|\\text\{\s*or\s*\}|\\lor\b|\\vee\b)", re.IGNORECASE)
_PERCENT_END_RE = re.compile(r"(?:\\?%|\\text\{\s*percent\s*\})\s*$")
_PLUS_MINUS_RE = re.compile(r"\\pm\b|\\mp\b|±")
# A bare ASCII integer or decimal: every screen of ``_compare`` passes it unchanged and
# ``parse_quantity`` reads it as itself, so two of them are compared at once (GSM8K's golds
# and most answers are integers; the full path costs ~40 us, this one ~1 us).
_PLAIN_NUMBER_RE = re.compile(r"[-+]?\d+(?:\.\d+)?")
# By name: sympy is imported in the worker only, never in the caller's process.
_SYMBOLIC = FunctionRef("verifiers.latex_equiv:symbolic_equiv")
# Killing a worker that overran and starting its successor costs up to ~0.6 s on a loaded
# machine (measured: 5.45 s for a 5 s deadline with 0.1 s kept): the whole call must fit.
_KILL_MARGIN_S = 1.0
_WORKER_INFRA_ERRORS = ("WorkerDied", "WorkerStartupTimeout", "ProtocolError")

# Normalisation for the string comparison only (the symbolic path parses the raw answers).
_STRIP_RE = re.compile(r"\\left|\\right|\\[,!;: ]|\\quad|\\qquad|\\displaystyle|\s+|\$")
_TEXT_RE = re.compile(r"\\(?:text|textbf|mathrm|mbox|textrm)\{([^{}]*)\}")


def _canonical(s: str) -> str:
    s = s.replace("\\dfrac", "\\frac").replace("\\tfrac", "\\frac")
    s = _TEXT_RE.sub(r"\1", s)
    s = _STRIP_RE.sub("", s)
    # No case folding: 3r^2 is not 3R^2 and \Pi is not \pi (words: ``words_key``).
    return s.rstrip(".")


def normalize_gold(answer: str) -> str:
    r"""The gold answer as a bare LaTeX answer: the ``\boxed{}`` or ``####`` part if present.

    >>> normalize_gold(r"$\boxed{\frac{1}{2}}$"), normalize_gold("#### 1,000"), normalize_gold("$5$.")
    ('\\frac{1}{2}', '1,000', '5')
    """
    if not isinstance(answer, str):
        raise TypeError(f"answer must be a str, got {type(answer).__name__}")
    if _PLAIN_NUMBER_RE.fullmatch(answer):
        return answer  # what every step below returns for it
    boxed = last_boxed(answer)
    if boxed is not None:
        return _clean(boxed)
    pos = answer.rfind("####")
    if pos >= 0:
        return _clean(answer[pos + 4 :].split("\n", 1)[0])
    money = _DOLLAR_GOLD_RE.fullmatch(answer.strip())
    if money is not None:  # "$64": one dollar sign and no closing one is money, not math
        return "\\$" + money.group(1)
    return _clean(answer)


_DOLLAR_GOLD_RE = re.compile(r"\$\s*(\d[\d,]*(?:\.\d+)?)")


def _plain_number(text: str) -> int | Fraction | None:
    """The value of ``text`` when it is a bare ASCII integer (an ``int``) or decimal (a
    ``Fraction``): ``parse_quantity``'s reading of it; else None."""
    if len(text) > MAX_NUMBER_CHARS or _PLAIN_NUMBER_RE.fullmatch(text) is None:
        return None
    return int(text) if "." not in text else Fraction(text)


def _guard(text: str) -> str | None:
    """Why ``text`` must not reach sympy, or None (``verifiers.latex_guard``)."""
    if len(text) > MAX_ANSWER_CHARS:
        return f"answer longer than {MAX_ANSWER_CHARS} characters"
    return runaway(text)


_GROUPED_NUMBER_RE = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_SIGNED_SIDE_BY_SIDE_RE = re.compile(r"\s*[-+]?\d+(?:\.\d+)?(?:\s+[-+]\d+(?:\.\d+)?)+\s*")


_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ|\u00b0|\\degree")


_CLOSED_AT_INFINITY_RE = re.compile(r"\[\s*-\s*\\infty|\\infty\s*\]")


# A marked choice letter and its option's text, no other letter: "(A) 37", "B) \\frac{1}{2}".
# (the text is no operand: "(C) \\cdot 1" is an expression of the letter)
_CHOICE_WITH_TEXT_RE = re.compile(
    r"\(([A-J])\)[ \t]+(?![+*/^_=]|-(?!\d)|\\(?:cdot|times|div|pm|mp)(?![A-Za-z]))"
    r"(?![^\n]*(?<![A-Za-z\\])[A-J](?![A-Za-z])|[^\n]*\b(?i:or)\b)[^\n]{1,40}")


_BOX_MARK_RE = re.compile(r"\\(?:boxed|fbox)(?![A-Za-z])")


def _one_box(pred: str) -> bool:
    """Whether ``pred`` is one box and nothing else ("\\boxed{5}", "$\\boxed{5}$.")."""
    content = last_boxed(pred)
    bare = pred.strip().strip("$").strip().rstrip(".").strip().strip("$").strip().replace(" ", "")
    return content is not None and len(_BOX_MARK_RE.findall(pred)) == 1 and bare in (
        f"\\boxed{{{content}}}".replace(" ", ""), f"\\fbox{{{content}}}".replace(" ", ""))


def _sign_and_body(text: str) -> tuple[str, str]:
    """``("-", "12_{3}")`` for ``-12_{3}``: a leading minus (any dash) apart from what it signs."""
    body = text.strip()
    if body[:1] in ("-", "\u2212"):
        return "-", body[1:].lstrip()
    return "", body.lstrip("+").lstrip() if body.startswith("+") else body


def _compare(
    gold: str, pred: str, timeout: float, value_out: list[Fraction] | None = None
) -> tuple[bool | None, str, dict[str, Any]]:
    """(equal?, reason, details) for a bare gold and a bare prediction; equal is None when no
    signal could be obtained. Every sympy call it makes, together, runs within ``timeout``.

    Equal: the same exact value however written (rationals and powers compared exactly, never
    to a fixed number of digits); a fraction or decimal for a percent gold (``0.5`` for
    ``50\\%``); the value of a labelled gold (``7:32`` for ``S_{MBCN}:S=7:32``, ``4, 5`` for
    ``AB=4, CD=5``, in the gold's order); an interval for a condition on one variable
    (``(5, \\infty)`` for ``x > 5``); the members of a gold that is a set or list of solutions,
    in any order (``(6, 2), (2, 2)`` for ``(2,2),(6,2)``). Not equal: a tuple in another order or
    written as a set; several values against a gold that is one value (reason ``hedged``).

    When the exact path decides, the prediction's value is appended to ``value_out`` (the
    parse is not repeated to show it).
    """
    deadline = time.monotonic() + timeout
    if len(pred) > MAX_ANSWER_CHARS:
        # First, so that every in-process step below reads at most this much.
        why = f"prediction: answer longer than {MAX_ANSWER_CHARS} characters"
        return False, TIMEOUT, {"path": "guard", "guard": why}
    if "box" in pred and _BOX_MARK_RE.search(pred) and not _one_box(pred):
        # a box among other text ("1, \boxed{G}, 3"): the symbolic reader would read the box
        # alone, and pay a list that merely holds the gold
        return False, HEDGED, {"path": "hedge", "problem": "a box among other values in the prediction"}
    g_plain, p_plain = _plain_number(gold), _plain_number(pred)
    if g_plain is not None and p_plain is not None:
        # The exact path below, without the screens that both sides pass unchanged.
        if value_out is not None:
            value_out.append(Fraction(p_plain))
        equal = g_plain == p_plain
        return equal, CORRECT if equal else WRONG, {"path": "exact"}
    gold, pred = latex_from_unicode(gold), mark_trailing_ellipsis(latex_from_unicode(pred))
    if _DEGREE_RE.search(pred) and not _DEGREE_RE.search(gold) and "\\pi" in gold and (
            _plain_number(_DEGREE_RE.sub("", pred).strip(" ${}")) is not None):
        # "30^\circ" is the number 30 against a gold of 30; against a gold in radians it
        # would be pi/6 too, and one answer may not be paid under two golds (30 and pi/6)
        return False, WRONG, {"path": "shape", "shape": "degrees against a gold in radians"}
    if _DEGREE_RE.search(gold) and not _DEGREE_RE.search(pred) and "\\pi" in pred and (
            _plain_number(_DEGREE_RE.sub("", gold).strip(" ${}")) is not None):
        # the converse: "\pi" against a gold of 180^\circ (which 180 pays) is radians
        return False, WRONG, {"path": "shape", "shape": "radians against a gold in degrees"}
    pred = without_checked_approximation(pred)
    bare = gold.strip()
    set_literal = bare.startswith("\\{") and bare.endswith("\\}") and "," in bare
    g_items = list_items(gold)
    if g_items > 1 or _PLUS_MINUS_RE.search(gold) or set_literal:
        # Several values in the gold: "x=1 or x=-2" is a solution set, not a hedge. Not a
        # tuple: (1, -2) is one ordered answer.
        pred = as_solution_list(pred) or pred
    if "=" not in gold:
        pred = drop_assignment(pred)  # "x = 10,\!080" states 10080
        sides = equality_chain(pred)
        if sides is not None:  # "\frac{1}{8} = 0.125", "5 + 22 = 27": every side is the answer
            return _all_equal(gold, sides, deadline, "chain", WRONG)
    if "=" not in pred:
        labelled = labelled_values(gold)
        if labelled is not None and len(labelled) > 1:
            return _compare_in_order(labelled, pred, deadline)
        unlabelled = labelled[0] if labelled else drop_assignment(gold)
        if unlabelled != gold:
            gold, g_items = unlabelled, list_items(unlabelled)
    if _HEDGE_RE.search(pred) and not _HEDGE_RE.search(gold) and not RELATION_RE.search(gold):
        # A gold that is a set of reals ("x > 3", "(-\infty, 2) \cup (3, \infty)") may be
        # spelled "x < 2 or x > 3"; the symbolic path refuses overlapping alternatives.
        return False, HEDGED, {"path": "hedge", "hedged": True}
    p_items = list_items(pred)
    if p_items > 1 and g_items == 1 and _DECIMAL_COMMA_RE.search(pred):
        # "5,5" is 5.5 where the comma marks decimals (not a thousands group): never a
        # restatement of 5
        return False, HEDGED, {"path": "hedge", "decimal_comma": True}
    if p_items > 1 and g_items == 1 and not _PLUS_MINUS_RE.search(gold):
        # "6, 7" against 6: a list of candidates, not a list answer (the gold has no comma);
        # "1.25, \frac{5}{4}" states one answer twice, paid only if every item is the gold.
        return _all_equal(gold, split_top_level(pred), deadline, "restated", HEDGED)
    if p_items > 1 and g_items > 1 and p_items != g_items:
        # Bare lists are compared as sets by sympy, so "1, 2, 2" would be "1, 2".
        return False, WRONG, {"path": "shape", "shape": f"{p_items} items vs {g_items}"}
    g_qty, p_qty = parse_quantity(gold), parse_quantity(pred)
    g_num = None if g_qty is None else g_qty[0]
    p_num = None if p_qty is None else p_qty[0]
    if g_qty is not None and p_qty is not None:
        (g_num, g_unit), (p_num, p_unit) = g_qty, p_qty
        if value_out is not None:
            value_out.append(p_num)
        # A unit the gold leaves out is dressing; two different units are two answers.
        if g_unit is not None and p_unit is not None and g_unit != p_unit:
            return False, WRONG, {"path": "exact", "units": (g_unit, p_unit)}
        if (g_unit is None or p_unit is None) and (counted := unit_mismatch(gold, pred)) is not None:
            return False, WRONG, {"path": "exact", "units": (g_unit, counted)}  # "62 marbles" is not "62 cm"
        # a percent is a unit of its own beside another: "\$5", "40^\circ" are not "5\%", "40\%"
        g_percent, p_percent = PERCENT_RE.search(gold) is not None, PERCENT_RE.search(pred) is not None
        if (g_percent and p_unit is not None) or (p_percent and g_unit is not None):
            return False, WRONG, {"path": "exact", "units": ("%" if g_percent else g_unit, "%" if p_percent else p_unit)}
        equal = g_num == p_num or (_percent_only_in(gold, pred) and g_num == 100 * p_num)
        if PERCENT_RE.search(pred) and not PERCENT_RE.search(gold):
            equal = percent_equal(p_num, g_num, gold_plain=_PLAIN_NUMBER_RE.fullmatch(gold.strip()) is not None)
        return equal, CORRECT if equal else WRONG, {"path": "exact"}
    if _CLOSED_AT_INFINITY_RE.search(pred) and not _CLOSED_AT_INFINITY_RE.search(gold):
        # "[0, \infty]" is closed where no real number is: not the gold's "[0, \infty)"
        return False, WRONG, {"path": "shape", "shape": "an interval closed at infinity"}
    g_choice, p_choice = choice_letter(gold), choice_letter(pred)
    if g_choice is not None and p_choice is None and (labelled := _CHOICE_WITH_TEXT_RE.fullmatch(pred.strip())):
        p_choice = (labelled.group(1), True)  # "(A) 37": the marked letter, then its option's text
    if g_choice is not None:
        # A choice is its letter however it is marked; nothing else ("C^1", "c") is a choice.
        equal = p_choice is not None and p_choice[0] == g_choice[0]
        return equal, CORRECT if equal else WRONG, {"path": "choice"}
    apart = digits_apart(pred)
    if apart is not None and digits_apart(gold) is None:
        return False, MALFORMED, {"path": "screen", "stray": f"digits apart: {apart!r}"}
    # one reading of a grouped number on every path below ("2\ 500" is 2500, never 2*500)
    gold, pred = join_thousands(gold), join_thousands(pred)
    if _SIGNED_SIDE_BY_SIDE_RE.fullmatch(pred) and not _SIGNED_SIDE_BY_SIDE_RE.fullmatch(gold):
        # "0 -1": a number, then a signed one (a difference is written "0 - 1" or "0-1")
        return False, MALFORMED, {"path": "screen", "stray": f"numerals side by side: {pred!r}"}
    if _GROUPED_NUMBER_RE.fullmatch(pred.strip()) and len(split_top_level(gold)) > 1:
        # "2,332" is the number 2332 (the exact path pays it for 2332): never also the list
        # "2, 332", or one box would be paid under two golds
        return False, WRONG, {"path": "exact"}
    beside = numerals_side_by_side(pred)
    if beside is not None and numerals_side_by_side(gold) is None:
        # "5 \frac{2}{2}" is 5 times 1 to the parsers: two values, not a mixed number
        return False, MALFORMED, {"path": "screen", "stray": f"numerals side by side: {beside!r}"}
    if _canonical(gold) == _canonical(pred):
        return True, CORRECT, {"path": "string"}
    g_words = words_key(gold)
    if g_words is not None and g_words == words_key(pred):
        return True, CORRECT, {"path": "string"}
    stray = stray_token(gold, pred)
    if stray is not None:
        return False, MALFORMED, {"path": "screen", "stray": stray}
    # a sign stands outside the numeral: "-12_{3}" is minus twelve in base three (-5), never -12
    g_sign, g_body = _sign_and_body(gold)
    p_sign, p_body = _sign_and_body(pred)
    g_base, p_base = base_numeral(g_body), base_numeral(p_body)
    if (g_base is not None or p_base is not None) and g_sign != p_sign:
        return False, WRONG, {"path": "base", "base": (p_base or g_base)[1]}  # type: ignore[index]
    if p_base is not None and p_base[1] != 10:
        # 101_2 is five, not the gold's 101; a gold in the same base compares digit by digit.
        equal = p_base == g_base
        return equal, CORRECT if equal else WRONG, {"path": "base", "base": p_base[1]}
    if p_base is not None and g_base is None:
        pred = p_sign + p_base[0]  # 101_{10} is 101
    if g_base is not None and g_base[1] != 10:
        # A gold in another base takes its own digits, bare or with the same base; "52_0" or
        # "4343_4" (no numeral at all) is not read as 52 or 4343 by dropping the subscript.
        equal = p_base == g_base or p_body.upper().lstrip("0") == g_base[0]
        return equal, CORRECT if equal else WRONG, {"path": "base", "base": g_base[1]}
    if p_base is None and impossible_numeral(p_body) and not impossible_numeral(g_body):
        return False, WRONG, {"path": "base", "base": "none"}  # "27_7" is no numeral, not 27
    units = unit_mismatch(gold, pred)
    if units is not None:
        return False, WRONG, {"path": "units", "units": units}
    for side, text in (("answer", gold), ("prediction", pred)):
        why = _guard(text)
        if why is not None:
            return False, TIMEOUT, {"path": "guard", "guard": f"{side}: {why}"}
    letter = unmatched_letter(gold, pred)
    if letter is not None:
        return False, WRONG, {"path": "screen", "stray": letter}
    constant = compare_constants(gold, pred)
    if constant is not None:
        return constant, CORRECT if constant else WRONG, {"path": "numeric"}
    mismatch = shape_mismatch(gold, pred, g_num is not None, p_num is not None)
    if mismatch:
        return False, WRONG, {"path": "shape", "shape": mismatch}
    for side, text in (("answer", gold), ("prediction", pred)):
        why = symbolic_power(text)
        if why is not None:
            return False, TIMEOUT, {"path": "guard", "guard": f"{side}: {why}"}
    # The worker's deadline leaves time to kill it and return within the caller's.
    left = deadline - time.monotonic() - min(_KILL_MARGIN_S, 0.2 * timeout)
    if left <= 0:
        return False, TIMEOUT, {"path": "symbolic", "timeout": timeout}
    try:
        percent = _percent_only_in(gold, pred)
        equal = run_with_deadline(_SYMBOLIC, gold, pred, percent=percent, timeout=left)
    except DeadlineExceeded:
        return False, TIMEOUT, {"path": "symbolic", "timeout": timeout}
    except WorkerError as exc:
        if exc.type_name in _WORKER_INFRA_ERRORS:
            return None, NO_SIGNAL, {"path": "symbolic", "error": str(exc)}
        return False, PARSE_ERROR, {"path": "symbolic", "error": str(exc)}
    return bool(equal), CORRECT if equal else WRONG, {"path": "symbolic"}


# A comma between digits, no space, not before a group of three: a decimal comma ("0,5").
_DECIMAL_COMMA_RE = re.compile(r"\d,(?:\d{1,2}|\d{4,})(?!\d)")


def _all_equal(
    gold: str, items: list[str], deadline: float, path: str, unequal: str
) -> tuple[bool | None, str, dict[str, Any]]:
    """Several items against a gold that is one value: equal only when every item is the gold
    (one answer spelled twice, ``1.25, \\frac{5}{4}``; a chain of equalities, ``\\frac{1}{8} =
    0.125``); otherwise another value is offered, reason ``unequal`` (``hedged`` for a list of
    candidates, ``wrong`` for a false chain)."""
    for item in items:
        left = deadline - time.monotonic()
        if left <= 0:
            return False, TIMEOUT, {"path": path, "timeout": True}
        equal, reason, details = _compare(gold, item, left)
        if equal is None or reason == TIMEOUT:
            return equal, reason, {**details, path: True}
        if not equal:
            shown = "hedge" if unequal == HEDGED else path
            return False, unequal, {"path": shown, "items": len(items), "other": item[:40]}
    return True, CORRECT, {"path": path, "items": len(items)}


def _percent_only_in(gold: str, pred: str) -> bool:
    """Whether the gold is a percent and the prediction is not: then the prediction may be the
    fraction (``0.5`` for ``50\\%``) as well as the number of percent (``50``)."""
    return _PERCENT_END_RE.search(gold) is not None and _PERCENT_END_RE.search(pred) is None


def _compare_in_order(
    values: list[str], pred: str, deadline: float
) -> tuple[bool | None, str, dict[str, Any]]:
    """A labelled gold list (``AB=4, CD=5``) against an unlabelled prediction: as many items,
    each equal to the gold's value at its place, all within one deadline."""
    items = split_top_level(pred)
    if len(items) != len(values):
        return False, WRONG, {"path": "shape", "shape": f"{len(items)} items vs {len(values)}"}
    for value, item in zip(values, items):
        left = deadline - time.monotonic()
        if left <= 0:
            return False, TIMEOUT, {"path": "labelled", "timeout": True}
        equal, reason, details = _compare(value, item, left)
        if not equal:
            return equal, reason, {**details, "labelled": True}
    return True, CORRECT, {"path": "labelled"}


# "x = 3\sqrt{13}" states the value 3\sqrt{13} of one variable (a letter, maybe with a
# subscript, or a Greek letter) or function ("f(x) = x^2+1"); "x = 1, y = 2" or "x = y = 3"
# is more than that.
_ASSIGNED_RE = re.compile(
    # (not "\not": "\not= 5" says the value is not 5)
    r"\s*(?:[A-Za-z]|\\(?!not(?![a-z]))[a-z]+)(?:_\{?\w{1,3}\}?)?(?:\([A-Za-z](?:,\s*[A-Za-z]){0,3}\))?\s*="
    r"\s*(?P<value>[^=<>]+)"
)


_LIST_COMMA_RE = re.compile(r",(?!(?:\\!|\{\})?\s*\d{3}(?!\d))")  # not 10,080 / 10,\!080


_OPTION_VALUE_RE = re.compile(r"(?:option|choice)\s+([A-J])", re.IGNORECASE)


def _assigned_value(pred: str, gold: str) -> str:
    """The value in ``x = value`` when the gold is a bare value (no ``=``), else ``pred``; a
    number in words is its digits (``two`` is 2, as GSM8K reads it)."""
    if pred[:1].isalpha() and pred.replace("-", "").replace(" ", "").isalpha():
        spelled = spelled_value(pred)
        if spelled is not None:
            return spelled
        option = _OPTION_VALUE_RE.fullmatch(pred)
        if option is not None and re.fullmatch(r"\(?[A-J]\)?", gold.strip()):
            return option.group(1)  # "The answer is option A." for a choice gold A
    if "=" in gold or "=" not in pred:
        return pred
    m = _ASSIGNED_RE.fullmatch(pred)
    if m is None or _LIST_COMMA_RE.search(m.group("value")):
        return pred
    return m.group("value").strip()


def _several_values(gold: str) -> bool:
    """Whether the gold holds several values (a list, a set, a \\pm): then several commitments
    may spell it out; against a single value, differing commitments are a hedge."""
    bare = gold.strip()
    return (
        list_items(gold) > 1
        or _PLUS_MINUS_RE.search(gold) is not None
        or (bare.startswith("\\{") and bare.endswith("\\}") and "," in bare)
    )


def _check_timeout(timeout: Any) -> float:
    if type(timeout) is float and timeout > 0:
        return timeout
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    return float(timeout)


def is_equiv(gold: str, pred: str, *, timeout: float = DEFAULT_TIMEOUT) -> bool:
    r"""Whether two bare answers are equivalent (a timeout counts as not equivalent).

    >>> is_equiv(r"\frac{1}{2}", "0.5"), is_equiv(r"\pi", "3.14"), is_equiv("(1,2)", "(1, 2)")
    (True, False, True)
    """
    timeout = _check_timeout(timeout)
    for name, value in (("gold", gold), ("pred", pred)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    equal, _, _ = _compare(normalize_gold(gold), _clean(pred), timeout)
    return bool(equal)
