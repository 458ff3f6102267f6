r"""High-precision evaluation of constant LaTeX expressions, in-process (no sympy, no worker).

Most MATH answers that are not plain numbers are still constants: ``2\sqrt{2}``,
``\frac{\pi}{3}``, ``3^{-2}``, ``\sqrt[3]{2}``. ``compare_constants`` evaluates both sides
to 80 significant digits with mpmath and decides the pair exactly as the symbolic path does for
constants (equal when the difference vanishes to 50 relative digits), but in microseconds
instead of an ANTLR parse. It returns ``None`` for anything outside its small grammar (variables,
tuples, sets, functions, units), which then goes to the symbolic path.

Grammar: numbers, ``+ - * /``, ``\cdot``, ``\times``, ``\div``, implicit products, ``^``
(right-associative, ``{..}`` or one token), ``\frac``/``\dfrac``/``\tfrac`` (``\frac12`` too),
``\sqrt{}``, ``\sqrt[n]{}``, ``\pi``, parentheses and braces, ``\left``/``\right``.

>>> compare_constants(r"2\sqrt{2}", r"\sqrt{8}")
True
>>> compare_constants(r"\frac{1}{2^{99}}", r"\frac{1}{2^{98}}")
False
>>> compare_constants(r"\pi", "3.14")
False
>>> compare_constants("x+1", "1+x") is None     # not a constant: the symbolic path decides
True
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_EXPONENT", "compare_constants", "evaluate_constant"]

_DPS = 80
_REL_TOL_DIGITS = 50
_MAX_CHARS = 300
_MAX_BITS = 100_000  # |log2| of any intermediate power; 2^100000 has ~30,000 digits
# Largest |exponent| evaluated here, whatever the base: mpmath's time grows with the exponent
# even where the result is tame (0.3^{10^{13937}} underflows, but took minutes to find out).
MAX_EXPONENT = 10_000
_TOKEN_RE = re.compile(r"\\[a-zA-Z]+|\d+(?:\.\d*)?|\.\d+|\S")
_DROP = {r"\left", r"\right", r"\displaystyle", r"\!", r"\,", r"\;", r"\:", r"\ "}
_MUL = {"*", r"\cdot", r"\times"}
_DIV = {"/", r"\div"}
_FRACS = {r"\frac", r"\dfrac", r"\tfrac"}
_OPEN = {"(": ")", "{": "}"}


class _NotConstant(Exception):
    pass


class _Parser:
    def __init__(self, tokens: list[str], mp: Any) -> None:
        self.toks = tokens
        self.i = 0
        self.mp = mp

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise _NotConstant(f"expected {expected!r}, got {tok!r}")
        self.i += 1
        return tok

    def parse(self) -> Any:
        value = self.expr()
        if self.peek() is not None:
            raise _NotConstant(f"unexpected {self.peek()!r}")
        return value

    def expr(self) -> Any:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def starts_atom(self, tok: str | None) -> bool:
        return tok is not None and (
            tok[0].isdigit()
            or tok[0] == "."
            or tok in _OPEN
            or tok in _FRACS
            or tok in (r"\sqrt", r"\pi")
        )

    def term(self) -> Any:
        value = self.unary()
        while True:
            tok = self.peek()
            if tok in _MUL:
                self.take()
                value = value * self.unary()
            elif tok in _DIV:
                self.take()
                den = self.unary()
                if den == 0:
                    raise _NotConstant("division by zero")
                value = value / den
            elif self.starts_atom(tok):  # implicit product: 2\sqrt{2}, 3\pi, (1)(2)
                value = value * self.power()
            else:
                return value

    def unary(self) -> Any:
        tok = self.peek()
        if tok in ("-", "+"):
            self.take()
            value = self.unary()
            return -value if tok == "-" else value
        return self.power()

    def power(self) -> Any:
        base = self.atom()
        if self.peek() == "^":
            self.take()
            exponent = self.group_or_token(allow_sign=True)
            if base == 0 and exponent <= 0:
                raise _NotConstant("0 to a non-positive power")
            # Bound the exponent itself, then the result's size in bits (either sign: a tiny
            # result is as costly as a huge one), so that no input makes mpmath compute for
            # long in-process: 10^{10^{10}}, 0.3^{1.9^{50000}} go to the deadline-guarded path.
            if abs(exponent) > MAX_EXPONENT:
                raise _NotConstant("exponent too large")
            if base != 0 and (abs(self.mp.mag(base)) + 1) * abs(exponent) > _MAX_BITS:
                raise _NotConstant("power too large")
            result = self.mp.power(base, exponent)
            if not isinstance(result, self.mp.mpf):
                raise _NotConstant("complex power")
            return result
        return base

    def group_or_token(self, allow_sign: bool = False) -> Any:
        tok = self.peek()
        if tok == "{":
            self.take()
            value = self.expr()
            self.take("}")
            return value
        if allow_sign and tok == "-":
            self.take()
            return -self.group_or_token()
        if tok is not None and tok[0].isdigit():
            # "2^10": LaTeX would typeset 2^1 then 0, but every writer means 2^{10}.
            self.take()
            return self.mp.mpf(tok)
        return self.atom()

    def atom(self) -> Any:
        tok = self.take()
        mp = self.mp
        if tok[0].isdigit() or tok[0] == ".":
            return mp.mpf(tok)
        if tok in _OPEN:
            value = self.expr()
            self.take(_OPEN[tok])
            return value
        if tok in _FRACS:
            num = self.frac_arg()
            den = self.frac_arg()
            if den == 0:
                raise _NotConstant("zero denominator")
            return num / den
        if tok == r"\sqrt":
            index = None
            if self.peek() == "[":
                self.take()
                index = self.expr()
                self.take("]")
            radicand = self.group_or_token()
            if radicand < 0:
                raise _NotConstant("root of a negative number")
            if index is None:
                return mp.sqrt(radicand)
            if index <= 0 or index > MAX_EXPONENT:
                raise _NotConstant("bad root index")
            return (
                mp.root(radicand, index) if index == int(index) else mp.power(radicand, 1 / index)
            )
        if tok == r"\pi":
            return +mp.pi
        raise _NotConstant(f"not a constant: {tok!r}")

    def frac_arg(self) -> Any:
        tok = self.peek()
        if tok is not None and tok[0].isdigit():
            # \frac12: one digit per argument
            self.take()
            if len(tok) > 1:
                self.toks.insert(self.i, tok[1:])
                tok = tok[0]
            return self.mp.mpf(tok)
        return self.group_or_token()


_CTX: Any = None


def _context() -> Any:
    # A private mpmath context: the global mpmath.mp precision is shared with the caller and
    # with other threads, ours is fixed at _DPS and never changed after creation.
    global _CTX
    if _CTX is None:
        from mpmath.ctx_mp import MPContext

        ctx = MPContext()
        ctx.dps = _DPS
        _CTX = ctx
    return _CTX


def _tokens(latex: str) -> list[str]:
    text = latex.strip().strip("$").strip()
    toks = [t for t in _TOKEN_RE.findall(text) if t not in _DROP]
    if any(t in (",", "\\infty") for t in toks):
        raise _NotConstant("tuple, list or interval")
    return toks


def evaluate_constant(latex: str) -> Any | None:
    r"""The value of a constant LaTeX expression as an 80-digit mpmath number, or None.

    >>> str(evaluate_constant(r"\frac{3}{4}"))[:4]
    '0.75'
    >>> evaluate_constant(r"\frac{x}{2}") is None
    True
    """
    if not isinstance(latex, str) or not latex.strip() or len(latex) > _MAX_CHARS:
        return None
    ctx = _context()
    try:
        value = _Parser(_tokens(latex), ctx).parse()
    except (_NotConstant, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    if not isinstance(value, ctx.mpf) or not ctx.isfinite(value):
        return None
    return value


def compare_constants(gold: str, pred: str) -> bool | None:
    """Equal / not equal when both sides are constants this module can evaluate, else None."""
    a = evaluate_constant(gold)
    if a is None:
        return None
    b = evaluate_constant(pred)
    if b is None:
        return None
    scale = max(abs(a), abs(b))
    if scale == 0:
        return True
    return bool(abs(a - b) <= scale * _context().mpf(10) ** -_REL_TOL_DIGITS)
