r"""Which answers must not reach sympy: power towers, huge exponents, huge factorials.

sympy evaluates ``9^{9^9}`` or ``(10^5)!`` exactly, which takes minutes and gigabytes; the
symbolic path runs in a killable worker, but an answer that can only end in a timeout is refused
before it costs one. The checks read the exponent and the factorial argument themselves, at any
brace depth, and judge them by their value, not by how they are spelled: ``{{1.9}^{9999}}``,
``^{9999 \cdot 5}``, ``^{(99999)}`` and ``{10^4 \cdot 3}!`` are all seen.

>>> runaway(r"0.3^{{1.9}^{9999 \cdot 5}}")
'power tower'
>>> runaway(r"2^{9999 \cdot 5}")
'exponent 49995 > 10000'
>>> runaway(r"x^{2} + 2^{10}") is None
True

Linear in the length of the answer (each ``^``/``!`` scans its own argument; the answer is at
most ``MAX_ANSWER_CHARS`` long when the caller asks).
"""

from __future__ import annotations

import re

from verifiers.latex_numeric import evaluate_constant

__all__ = ["MAX_EXPONENT", "MAX_NESTING", "runaway"]

MAX_EXPONENT = 10_000  # larger exponents / factorial arguments are refused
_MAX_CARETS = 20
# Deeper brackets cost the LaTeX parser seconds (40 nested parentheses around x: past the
# 5 s deadline); answers nest 3 deep at most in MATH-500 and the labelled sets.
MAX_NESTING = 12
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
_COMMAND_RE = re.compile(r"\\[a-zA-Z]+")
_FACTORIAL_CHAIN_RE = re.compile(r"(?<!\\)!(?:\s*!){2,}")
_COSTLY_ARGUMENT_RE = re.compile(r"\\(?:Gamma|[dt]?binom)(?![a-zA-Z])")


def _group(text: str, start: int, step: int) -> str:
    """The argument that begins at ``start`` and runs in direction ``step`` (+1 after a ``^``,
    -1 before a ``!``): a balanced ``{}``/``()``/``[]`` group, a number, or one command/char."""
    n = len(text)
    i = start
    while 0 <= i < n and text[i].isspace():
        i += step
    if not 0 <= i < n:
        return ""
    opening, closing = ("{([", "})]") if step > 0 else ("})]", "{([")
    if text[i] in opening:
        depth, j = 0, i
        while 0 <= j < n:
            if text[j] in opening:
                depth += 1
            elif text[j] in closing:
                depth -= 1
                if depth == 0:
                    break
            j += step
        lo, hi = (i, j) if step > 0 else (j, i)
        return text[max(lo, 0) : hi + 1]
    j = i
    if text[i].isdigit() or text[i] == ".":
        while 0 <= j + step < n and (text[j + step].isdigit() or text[j + step] in ".,"):
            j += step
    elif step > 0 and text[i] == "\\":
        m = _COMMAND_RE.match(text, i)
        j = m.end() - 1 if m else i
    lo, hi = (i, j) if step > 0 else (j, i)
    return text[lo : hi + 1]


def _too_big(arg: str) -> str | None:
    """``arg``'s size when it exceeds ``MAX_EXPONENT``, else None. A constant is evaluated
    (with ``evaluate_constant``, itself bounded); otherwise the product of its numerals bounds
    what it could reach (``9999 \\cdot 5 y``)."""
    inner = arg.strip()
    while len(inner) >= 2 and inner[0] + inner[-1] in ("{}", "()", "[]"):
        inner = inner[1:-1].strip()  # one outer pair at a time: "(10^{7})" is 10^{7}, not "10^{7"
    inner = inner.replace(",", "")
    value = evaluate_constant(inner) if inner else None
    if value is not None:
        return None if abs(value) <= MAX_EXPONENT else str(int(abs(value)))
    product = 1.0
    for m in _NUMBER_RE.finditer(inner):
        number = float(m.group(0))
        if number > MAX_EXPONENT:
            return m.group(0)
        product *= max(number, 1.0)
        if product > MAX_EXPONENT:
            return f"{product:.0f}"
    return None


def _nesting(text: str) -> int:
    """The deepest nesting of ``(``/``[``/``{`` in ``text``."""
    depth = deepest = 0
    for c in text:
        if c in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in ")]}":
            depth -= 1
    return deepest


def runaway(text: str) -> str | None:
    """Why sympy would run away on ``text`` (a power tower, an exponent or a factorial argument
    beyond ``MAX_EXPONENT``), or None."""
    if text.count("^") > _MAX_CARETS:
        return "power tower"
    depth = _nesting(text)
    if depth > MAX_NESTING:
        return f"brackets nested {depth} deep > {MAX_NESTING}"
    for m in re.finditer(r"\^", text):
        arg = _group(text, m.end(), 1)
        if "^" in arg or "\\exp" in arg:
            return "power tower"
        big = _too_big(arg)
        if big is not None:
            return f"exponent {big} > {MAX_EXPONENT}"
    plain = text.replace("\\left", "").replace("\\right", "") if "\\left" in text else text
    for m in _COSTLY_ARGUMENT_RE.finditer(plain):
        # \Gamma(n) is (n-1)!, \binom{n}{k} a ratio of factorials: sympy expands them exactly
        first = _group(plain, m.end(), 1)
        args = (first,) if m.group(0) == "\\Gamma" else (first, _group(plain, m.end() + len(first), 1))
        for arg in args:
            big = "a power" if "^" in arg else (_too_big(arg) if arg else None)
            if big is not None:
                return f"{m.group(0)[1:]} of {big}"
    if _FACTORIAL_CHAIN_RE.search(text):
        # "((2))!!!!..." is 2 at every step, but sympy evaluates the unevaluated chain it is
        # given in time that grows with its length (40 signs: seconds); no answer writes three
        return "factorial chain"
    for m in re.finditer(r"(?<!\\)!", text):
        arg = _group(text, m.start() - 1, -1)
        if "!" in arg.rstrip("!"):
            return "nested factorial"
        big = _too_big(arg)
        if big is not None:
            return f"factorial of {big}"
    return None
