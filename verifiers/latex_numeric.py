r"""High-precision evaluation of constant LaTeX expressions, in-process (no sympy, no worker).

Most MATH answers that are not plain numbers are still constants: ``2\sqrt{2}``,
``\frac{\pi}{3}``, ``3^{-2}``, ``\sqrt[3]{2}``. ``compare_constants`` evaluates both sides
exactly when both are rational (``10^{100}+1`` is not ``10^{100}``), else with mpmath to 80
significant digits plus the spread of the magnitudes the expression passes through (equal when
the difference vanishes to 50 relative digits beyond that spread, so that ``\sqrt{10^{100}+1}``
is not ``10^{50}``), in microseconds instead of an ANTLR parse. It returns ``None`` for anything outside its small grammar (variables,
tuples, sets, functions, units), which then goes to the symbolic path.

Grammar: numbers, ``+ - * /``, ``\cdot``, ``\times``, ``\div``, implicit products, ``^``
(right-associative, ``{..}`` or one token), ``\frac``/``\dfrac``/``\tfrac`` (``\frac12`` too),
``\sqrt{}``, ``\sqrt[n]{}``, ``\pi``, parentheses and braces, ``\left``/``\right``.
``compare_constants`` also reads ``i`` as the imaginary unit, as the symbolic path does
(``6 - 5i``, ``\frac{1}{i}``, ``(1+i)^2``): sums, products, quotients and integer powers of
complex values only; a root or a non-integer power of one goes to the symbolic path.

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
from fractions import Fraction
from math import isqrt
from typing import Any

__all__ = ["MAX_EXPONENT", "compare_constants", "evaluate_constant", "exact_constant"]

_DPS = 80
_REL_TOL_DIGITS = 50
_MAX_CHARS = 300
_MAX_DPS = 40_000  # digits of the widest evaluation compare_constants makes
_MAX_EXACT_BITS = 400_000  # size of an exact rational power (numerator and denominator bits)
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


class _Exact:
    """The arithmetic ``_Parser`` needs, on exact rationals (``Fraction``): a value that is
    not rational (``\\pi``, ``\\sqrt{2}``) raises ``_NotConstant``."""

    mpf = Fraction

    @staticmethod
    def mag(x: Fraction) -> int:
        return x.numerator.bit_length() - x.denominator.bit_length() if x else 0

    @staticmethod
    def root(x: Fraction, n: Any) -> Fraction:
        if n != int(n) or x < 0:
            raise _NotConstant("irrational root")
        n = int(n)
        num, den = _int_root(x.numerator, n), _int_root(x.denominator, n)
        if num is None or den is None:
            raise _NotConstant("irrational root")
        return Fraction(num, den)

    def sqrt(self, x: Fraction) -> Fraction:
        return self.root(x, 2)

    def power(self, base: Fraction, exponent: Fraction) -> Fraction:
        exponent = Fraction(exponent)
        if base < 0 and exponent.denominator != 1:
            raise _NotConstant("root of a negative number")
        if exponent.denominator != 1:
            base = self.root(base, exponent.denominator)
        # The size of the exact result, not its magnitude: (1001/1000)^{10000} is near 10^4
        # but spells 100,000 bits; raised again, it would take minutes (mpmath decides then).
        size = base.numerator.bit_length() + base.denominator.bit_length()
        if size * abs(exponent.numerator) > _MAX_EXACT_BITS:
            raise _NotConstant("exact power too large")
        return base**exponent.numerator

    @property
    def pi(self) -> Fraction:
        raise _NotConstant("pi is irrational")


def _int_root(n: int, k: int) -> int | None:
    """The exact ``k``-th root of ``n >= 0``, or None."""
    if k == 2:
        r = isqrt(n)
    else:
        r = round(n ** (1.0 / k)) if n.bit_length() < 1000 else None
        if r is None:
            return None
        for c in (r - 1, r, r + 1):
            if c >= 0 and c**k == n:
                return c
        return None
    return r if r * r == n else None


class _Parser:
    def __init__(self, tokens: list[str], mp: Any, imaginary: bool = False) -> None:
        self.toks = tokens
        self.i = 0
        self.mp = mp
        # "i" is the imaginary unit (never in exact mode: a Gaussian rational is no Fraction).
        self.imaginary = imaginary and mp is not _EXACT
        # Binary magnitudes of the values the expression passes through: their spread is the
        # cancellation a fixed precision would hide (10^{100} + 1 - 10^{100}).
        self.mags: list[int] = []
        # Digits of the longest numeral: a fixed precision would round it (sqrt{10^{117}+1}).
        self.digits = 0

    def note(self, value: Any) -> Any:
        if value:
            self.mags.append(int(self.mp.mag(value)))
        return value

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
            rhs = self.note(self.term())
            self.note(value)
            value = self.note(value + rhs if op == "+" else value - rhs)
        return value

    def starts_atom(self, tok: str | None) -> bool:
        return tok is not None and (
            tok[0].isdigit()
            or tok[0] == "."
            or tok in _OPEN
            or tok in _FRACS
            or tok in (r"\sqrt", r"\pi")
            or (tok == "i" and self.imaginary)
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
                last = self.toks[self.i - 1]
                if (tok[0].isdigit() or tok[0] == ".") and (last[0].isdigit() or last[-1] == "."):
                    # "2\ 500", "5\quad 000": numerals side by side are no product (the
                    # string reading takes a thousands group; reading both would pay 2500
                    # and 1000 for the same box)
                    raise _NotConstant("numerals side by side")
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
            if self.is_complex(base) or self.is_complex(exponent):
                return self.note(self.complex_power(base, exponent))
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
            return self.note(result)
        return self.note(base)

    def is_complex(self, value: Any) -> bool:
        return self.imaginary and isinstance(value, self.mp.mpc)

    def complex_power(self, base: Any, exponent: Any) -> Any:
        """An integer power of a complex base; any other power involving a complex value has
        branches, which the symbolic path chooses."""
        mp = self.mp
        if self.is_complex(exponent) or exponent != int(exponent):
            raise _NotConstant("complex power with branches")
        n = int(exponent)
        if abs(n) > MAX_EXPONENT:
            raise _NotConstant("exponent too large")
        if base == 0 and n <= 0:
            raise _NotConstant("0 to a non-positive power")
        if base != 0 and (abs(mp.mag(base)) + 1) * abs(n) > _MAX_BITS:
            raise _NotConstant("power too large")
        # By squaring: mpmath's complex power goes through exp and log, 10-20x slower at the
        # thousands of digits a large power is evaluated at (0.8 s for (2+i)^{9999}(3+i)^{9999}).
        result, square = mp.mpc(1), base
        for bit in bin(abs(n))[:1:-1]:
            if bit == "1":
                result *= square
            square *= square
        return result if n >= 0 else 1 / result

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
            self.digits = max(self.digits, len(tok))
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
            if self.is_complex(radicand) or (index is not None and self.is_complex(index)):
                raise _NotConstant("root of a complex number")
            if index is None:
                if radicand < 0:
                    raise _NotConstant("root of a negative number")
                return mp.sqrt(radicand)
            if index <= 0 or index > MAX_EXPONENT:
                raise _NotConstant("bad root index")
            if radicand < 0:
                if index != int(index) or int(index) % 2 == 0:
                    raise _NotConstant("even root of a negative number")
                # an odd root of a negative number is the real one, as MATH reads it
                # (\sqrt[3]{-8} is -2; sympy's principal root would be 1 + i\sqrt{3})
                return -mp.root(-radicand, int(index))
            return (
                mp.root(radicand, index) if index == int(index) else mp.power(radicand, 1 / index)
            )
        if tok == r"\pi":
            return +mp.pi if mp is not _EXACT else mp.pi
        if tok == "i" and self.imaginary:
            return mp.mpc(0, 1)
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


_EXACT = _Exact()
_CONTEXTS: dict[int, Any] = {}


def _context(dps: int = _DPS) -> Any:
    # Private mpmath contexts, one per precision: the global mpmath.mp precision is shared with
    # the caller and with other threads; ours are fixed when created and never changed.
    ctx = _CONTEXTS.get(dps)
    if ctx is None:
        from mpmath.ctx_mp import MPContext

        ctx = MPContext()
        ctx.dps = dps
        if len(_CONTEXTS) < 64:
            _CONTEXTS[dps] = ctx
    return ctx


def _tokens(latex: str) -> list[str]:
    text = latex.strip().strip("$").strip()
    toks = [t for t in _TOKEN_RE.findall(text) if t not in _DROP]
    if any(t in (",", "\\infty") for t in toks):
        raise _NotConstant("tuple, list or interval")
    return toks


def _evaluate(latex: str, dps: int = _DPS, imaginary: bool = False) -> tuple[Any, int] | None:
    """(value at ``dps`` digits, bits a fixed precision could lose: the spread of the
    magnitudes passed through plus the longest numeral), or None. A complex value only where
    ``imaginary`` (``i`` is then the imaginary unit)."""
    if not isinstance(latex, str) or not latex.strip() or len(latex) > _MAX_CHARS:
        return None
    ctx = _context(dps)
    parser = _Parser(_tokens_or_none(latex) or [], ctx, imaginary)
    if not parser.toks:
        return None
    try:
        value = parser.parse()
    except (_NotConstant, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    kinds = (ctx.mpf, ctx.mpc) if imaginary else ctx.mpf
    if not isinstance(value, kinds) or not ctx.isfinite(value):
        return None
    spread = max(parser.mags) - min(parser.mags) if parser.mags else 0
    return value, spread + (parser.digits * 10) // 3 + 1


def _tokens_or_none(latex: str) -> list[str] | None:
    try:
        return _tokens(latex)
    except _NotConstant:
        return None


def evaluate_constant(latex: str) -> Any | None:
    r"""The value of a constant LaTeX expression as an 80-digit mpmath number, or None.

    >>> str(evaluate_constant(r"\frac{3}{4}"))[:4]
    '0.75'
    >>> evaluate_constant(r"\frac{x}{2}") is None
    True
    """
    result = _evaluate(latex)
    return None if result is None else result[0]


def exact_constant(latex: str) -> Fraction | None:
    r"""The exact rational value of a constant LaTeX expression, or None when it has none
    (``\pi``, ``\sqrt{2}``) or is no constant.

    >>> exact_constant(r"10^{100}+1") - exact_constant(r"10^{100}"), exact_constant(r"\sqrt{2}")
    (Fraction(1, 1), None)
    """
    if not isinstance(latex, str) or not latex.strip() or len(latex) > _MAX_CHARS:
        return None
    toks = _tokens_or_none(latex)
    if not toks:
        return None
    try:
        value = _Parser(toks, _EXACT).parse()
    except (_NotConstant, ValueError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    return value if isinstance(value, Fraction) else None


def _agree(a: Any, b: Any, digits: int, ctx: Any) -> bool:
    scale = max(abs(a), abs(b))
    return bool(scale == 0 or abs(a - b) <= scale * ctx.mpf(10) ** -digits)


def compare_constants(gold: str, pred: str) -> bool | None:
    r"""Equal / not equal when both sides are constants this module can evaluate, else None.

    Two rationals are equal only when they are the same rational. Otherwise the values must
    agree to 50 relative digits beyond the spread of magnitudes either expression passes
    through (evaluated at that precision): a fixed precision would call
    ``\sqrt{10^{100}+1}`` and ``10^{50}`` equal.
    """
    a, b = _evaluate(gold, imaginary=True), _evaluate(pred, imaginary=True)
    if a is None or b is None:
        return None
    ctx = _context()
    extra = (max(a[1], b[1]) * 30103) // 100_000 + 1  # bits -> decimal digits, rounded up
    covered = extra <= _DPS - _REL_TOL_DIGITS - 10  # the 80 digits cover the spread
    # (a spread past them may have cancelled a value to nothing: 10^{100}+1-10^{100} reads 0
    # at 80 digits, so only the exact or the wider evaluation below may refuse it)
    if covered and not _agree(a[0], b[0], _REL_TOL_DIGITS, ctx):
        return False
    exact_a, exact_b = exact_constant(gold), exact_constant(pred)
    if exact_a is not None and exact_b is not None:
        return exact_a == exact_b
    if covered:
        return True
    dps = _REL_TOL_DIGITS + extra + 30
    if dps > _MAX_DPS:
        return None  # no verdict here: the symbolic path decides within its deadline
    a, b = _evaluate(gold, dps, imaginary=True), _evaluate(pred, dps, imaginary=True)
    if a is None or b is None:
        return None
    return _agree(a[0], b[0], dps - 30, _context(dps))
