r"""Symbolic equivalence of two LaTeX answers (the slow path; runs inside a deadline worker).

``verifiers.math`` calls ``symbolic_equiv`` through ``verifiers.deadline.run_with_deadline``:
this module imports sympy and latex2sympy (math-verify's LaTeX parser), which the parent
process never needs for plain numbers.

How two answers are compared, after both are parsed to sympy objects:

- numbers: exactly. Decimals become the rationals they spell (``0.25`` is ``1/4``); everything
  else is compared by evaluating the difference to 80 significant digits and requiring it to
  vanish relative to the operands (so ``1/2^99`` is not ``1/2^98`` and ``3.14`` is not ``\pi``:
  math-verify's default rounding to 6 decimals accepts the first).
- expressions with variables: ``expand(a - b) == 0``, else agreement at several seeded random
  points of both signs to the same relative precision; a point where one side is real and the
  other is not shows different domains (``\ln x`` vs ``\ln|x|``).
- equations: same sides, swapped sides, or ``lhs - rhs`` equal up to a nonzero constant factor
  (``2y = 4x + 6`` is ``y = 2x + 3``); ``x = 2`` against a bare ``2`` compares the right-hand
  side.
- inequalities: same strictness and ``lhs - rhs`` (of the ``>`` form) equal up to a positive
  factor: ``x \geq 5`` is ``5 \leq x`` and ``-x \leq -5``, never ``x > 5`` or ``x \leq 5``.
- symbols keep their case (``R`` is not ``r``).
- tuples and matrices element by element, sets and unions as unordered collections, intervals
  by endpoints and openness. A tuple is never a set (``(2, 1)`` is not ``\{1, 2\}``); ``(1, 2)``,
  which parses as an open interval, equals the pair ``(1, 2)`` in that order only.
- a condition on one variable is the set of reals it describes: ``x > 5`` is ``(5, \infty)``,
  ``2 < x \leq 5`` is ``(2, 5]``, ``x < 2 \text{ or } x > 3`` a union (only of disjoint parts:
  ``x \geq 5, x \geq 6`` offers two answers), ``x \in [5, \infty)`` the interval;
  ``\mathbb{R} \setminus \{0\}`` equals the union of intervals with the same points, and
  ``\varnothing`` is ``\emptyset``.
- constants that are not both rational agree to 50 relative digits beyond twice the digits of
  their largest number (``10^{100}`` counts 100), evaluated at that precision: ``\sqrt{10^{100}
  + 1}`` is not ``10^{50}``.
- ``\%`` is a unit, like ``cm``: ``25\%`` is 25 (the fast path agrees).

When our parser cannot read the gold, math-verify's own ``parse`` + ``verify`` decide; a
prediction our parser cannot read is a parse error, never handed to math-verify, whose parser
drops what it does not know (``\neq 5`` would be 5).

>>> symbolic_equiv(r"\frac{\sqrt{3}}{3}", r"\frac{1}{\sqrt{3}}")
True
>>> symbolic_equiv(r"\frac{1}{2^{99}}", r"\frac{1}{2^{98}}")
False
>>> symbolic_equiv(r"[1, 2) \cup (3, \infty)", r"(3,\infty)\cup[1,2)")
True
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

import sympy
from latex2sympy2_extended.latex2sympy2 import ConversionConfig, latex2sympy
from latex2sympy2_extended.math_normalization import NormalizationConfig, normalize_latex
from sympy import Eq, FiniteSet, Float, Interval, Rational, Tuple, Union
from sympy.core.evalf import PrecisionExhausted
from sympy.matrices import MatrixBase

__all__ = ["parse_latex_answer", "symbolic_equiv"]

_NORMALIZATION = NormalizationConfig(
    basic_latex=True, units=True, malformed_operators=True, nits=True, boxed="all", equations=False
)
# Symbols keep their case: R is not r (latex2sympy lower-cases them by default).
_CONVERSION = ConversionConfig(lowercase_symbols=False)
_PRECISION = 80  # significant digits of numeric evaluation
_PROOF_DIGITS = 2_000  # working digits a strict evaluation may use to show two constants apart
_REL_TOL = sympy.Rational(1, 10**50)
_SEED = 20240601  # fixed: the same pair always gets the same random points
_POINTS = 3  # agreeing points that make two expressions equal
_TRIES = 16  # points tried at most, skipping those where the expressions are undefined
_SIGN_PATTERN_VARS = 3  # variables whose sign patterns the first 2**3 points run through
_MIN_TRIES = 8  # points looked at before agreeing: every sign pattern of three variables
_PERCENT_RE = re.compile(r"\\?%")
_EMPTY_RE = re.compile(r"\\varnothing(?![a-zA-Z])|\\\{\s*\\\}")
_COMPLEX_RE = re.compile(r"(?<![a-zA-Z\\])i(?![a-zA-Z])|\\mathrm\{i\}|\\begin\{[pbv]?matrix\}")


def parse_latex_answer(latex: str) -> Any:
    r"""Parse one answer (no surrounding text) to a sympy object; raises on failure.

    >>> parse_latex_answer(r"\dfrac{3}{4}")
    3/4
    """
    text = _PERCENT_RE.sub("", latex)
    text = _EMPTY_RE.sub(r"\\emptyset ", text)
    text = normalize_latex(text, _NORMALIZATION)
    if not text.strip():
        raise ValueError("empty answer")
    complex_ = bool(_COMPLEX_RE.search(text))
    expr = latex2sympy(
        text,
        is_real=not complex_,
        convert_degrees=True,  # "\sin 30^\circ" is sin(pi/6), never sin(30)
        normalization_config=None,
        conversion_config=_CONVERSION,
    )
    if complex_ and isinstance(expr, sympy.Basic):
        # latex2sympy leaves the imaginary unit as a symbol named i.
        units = {s: sympy.I for s in expr.free_symbols if s.name == "i"}
        if units:
            expr = expr.xreplace(units)
    return expr


def _exact(x: Any) -> Any:
    # A decimal is the rational it spells: Float('0.1') prints as 0.100000000000000 -> 1/10.
    floats = x.atoms(Float) if isinstance(x, sympy.Basic) else ()
    if floats:
        x = x.xreplace({f: Rational(str(f)) for f in floats})
    return x


def _spread_digits(*exprs: Any) -> int:
    """Decimal digits of the largest number written in ``exprs``, powers included
    (``10^{100}``: 100): the cancellation a fixed precision could hide (``\\sqrt{10^{100}+1}``
    against ``10^{50}``). Capped at 20,000 (the guard keeps exponents below 10,000)."""
    digits = 0
    for e in exprs:
        if not isinstance(e, sympy.Basic):
            continue
        for r in e.atoms(Rational):
            digits = max(digits, len(str(abs(r.p))), len(str(r.q)))
        for pw in e.atoms(sympy.Pow):
            try:
                base, exp = abs(float(pw.base)), abs(float(pw.exp))
                if base > 0:
                    digits = max(digits, int(exp * abs(math.log10(base))) + 1)
            except (TypeError, ValueError, OverflowError):
                continue
    return min(digits, 20_000)


def _close(a: Any, b: Any) -> bool | None:
    """Numeric agreement of two constant expressions; None when not evaluable. Exact values
    must agree to 50 relative digits beyond twice the size of their largest integer, at a
    precision that covers it, so that values apart by less than 10^-50 are still told apart."""
    try:
        spread = 2 * _spread_digits(a, b)
        prec = _PRECISION + spread
        va = sympy.N(a, prec)
        vb = sympy.N(b, prec)
        if not (va.is_number and vb.is_number) or va.has(sympy.nan, sympy.zoo, sympy.oo):
            return None
        diff = abs(sympy.N(va - vb, prec))
        scale = max(abs(va), abs(vb))
        if scale == 0:
            return True
        if (va == 0 or vb == 0) and scale < sympy.Integer(10) ** -(prec // 2):
            # no relative tolerance reaches an exact zero ("\sin(\pi)" evaluates to a
            # rounding error): a value this close to it is zero unless strict evaluation
            # proves it apart (``_provably_apart``: e^{-1000} is not 0)
            return True
        return bool(diff <= _REL_TOL / sympy.Integer(10) ** spread * scale)
    except (TypeError, ValueError, ArithmeticError):
        return None


def _provably_apart(a: Any, b: Any) -> bool:
    """Whether two exact constants that agree to the tolerance of :func:`_close` still differ:
    sympy's strict evaluation of ``a - b`` gets its leading digits right or raises, so a
    nonzero result is a proof (``5 + e^{-150}`` is not 5, ``\\tanh(100)`` is not 1, however
    far past any fixed precision), while a difference that is zero (``\\sqrt{3+2\\sqrt{2}}``
    against ``1+\\sqrt{2}``) exhausts ``_PROOF_DIGITS`` and is left to the tolerance."""
    try:
        value = (a - b).evalf(15, strict=True, maxn=_PROOF_DIGITS)
    except (PrecisionExhausted, TypeError, ValueError, ArithmeticError):
        return False
    return bool(value.is_number and value != 0)


def _expr_equal(a: Any, b: Any) -> bool:
    if a == b:
        return True
    if not (isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr)):
        return False
    a, b = _summed(_exact(a)), _summed(_exact(b))
    if a == b:
        return True
    if a.is_infinite or b.is_infinite:
        return False
    free = sorted(a.free_symbols | b.free_symbols, key=str)
    if not free:
        if a.is_Rational and b.is_Rational:
            return False  # equal rationals were caught above
        return bool(_close(a, b)) and not _provably_apart(a, b)
    try:
        if sympy.expand(a - b) == 0:
            return True
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        pass
    return _agree_at_points(a, b, free)


def _summed(expr: Any) -> Any:
    """``expr`` with its sums, products, integrals and limits carried out
    (``\\sum_{k=1}^{n} k`` is ``n^2/2 + n/2``, ``\\prod_{k=1}^{n} k`` is ``n!``,
    ``\\int_0^\\infty e^{-x} dx`` is 1), exactly, by sympy, under the comparison's deadline;
    left as written where sympy finds no closed form. An unevaluated sum has no value at the
    non-integer points that :func:`_agree_at_points` tries, and evaluating it there ran out the
    deadline."""
    if not expr.has(sympy.Sum, sympy.Product, sympy.Integral, sympy.Limit):
        return expr
    try:
        return expr.doit()
    except (TypeError, ValueError, ArithmeticError, NotImplementedError, RecursionError):
        return expr


def _real_roots(expr: Any) -> Any:
    """``expr`` with odd roots of a power taken as real roots (``x^{2/3}`` at -8 is 4, the
    school convention, as ``\\sqrt[3]{x^2}`` gives), not sympy's principal complex branch."""
    return expr.replace(
        lambda e: e.is_Pow and e.exp.is_Rational and not e.exp.is_integer and e.exp.q % 2 == 1,
        lambda e: sympy.real_root(e.base**e.exp.p, e.exp.q),
    )


def _substituted(expr: Any, point: dict[Any, Any]) -> Any | None:
    """``expr`` at ``point``, exact (sympy's own arithmetic); None where that fails."""
    try:
        return expr.subs(point)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None


def _numeric(value: Any) -> Any | None:
    """``value`` to ``_PRECISION`` digits; None where it is undefined."""
    try:
        value = sympy.N(value, _PRECISION)
    except (TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    if not value.is_number or value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        return None
    return value


def _is_real(value: Any) -> bool:
    imag = abs(sympy.im(value))
    return bool(imag <= _REL_TOL * max(abs(value), 1))


def _agree_at(a: Any, b: Any, point: dict[Any, Any], complex_: bool) -> bool | None:
    """Whether ``a`` and ``b`` agree at ``point``: None where it gives no evidence (a pole, a
    removable singularity, outside both real domains)."""
    exact_a, exact_b = _substituted(a, point), _substituted(b, point)
    if exact_a is None or exact_b is None:
        return None
    if exact_a.is_Rational and exact_b.is_Rational:
        # Rational functions at rational points are exact rationals: compared exactly, since
        # a tolerance lets "\prod_{k=1}^{68}(x-k) + 1" pass for "\prod_{k=1}^{68}(x-k)"
        return bool(exact_a == exact_b)
    va, vb = _numeric(exact_a), _numeric(exact_b)
    if va is None or vb is None:
        return None
    if not complex_:
        real_a, real_b = _is_real(va), _is_real(vb)
        if real_a != real_b:
            return False  # one side is real there, the other not: the domains differ
        if not real_a:
            return None
    verdict = _close(va, vb)
    return None if verdict is None else bool(verdict)


def _agree_at_points(a: Any, b: Any, free: list[Any]) -> bool:
    """Whether ``a`` and ``b`` agree at ``_POINTS`` seeded random points (and nowhere differ).

    Coordinates take both signs in turn (``x + |x|`` and ``2x`` agree at every positive
    point; ``\\ln x`` and ``\\ln|x|`` too). For real expressions, a point where both sides are
    complex lies outside both real domains and is skipped (``\\sqrt{x^3}`` and ``x\\sqrt{x}``
    at x < 0), but one where only one side is real shows that the domains differ: not equal.
    """
    complex_ = a.has(sympy.I) or b.has(sympy.I)
    if not complex_:
        a, b = _real_roots(a), _real_roots(b)
    rng = random.Random(_SEED)
    agreed = 0
    for k in range(_TRIES):
        point = {}
        for j, symbol in enumerate(free):
            magnitude = Rational(rng.randint(101, 997), rng.randint(101, 997))
            # The first variables run through every sign pattern; any beyond them get random ones.
            negative = (k >> j) & 1 if j < _SIGN_PATTERN_VARS else rng.random() < 0.5
            point[symbol] = -magnitude if negative else magnitude
        verdict = _agree_at(a, b, point, complex_)
        if verdict is False:
            return False
        if verdict:
            agreed += 1
            if agreed >= _POINTS and k + 1 >= _MIN_TRIES:
                return True
    return agreed >= _POINTS


_GREATER = (sympy.StrictGreaterThan, sympy.GreaterThan)
_LESS = (sympy.StrictLessThan, sympy.LessThan)
_INEQUALITIES = (*_GREATER, *_LESS)


def _positive_side(rel: Any) -> tuple[Any, bool] | None:
    """``(d, strict)`` with ``rel`` meaning ``d > 0`` (strict) or ``d >= 0``; None if ``rel``
    is no inequality between expressions."""
    if not isinstance(rel, _INEQUALITIES) or not all(isinstance(x, sympy.Expr) for x in rel.args):
        return None
    d = rel.lhs - rel.rhs if isinstance(rel, _GREATER) else rel.rhs - rel.lhs
    return d, isinstance(rel, (sympy.StrictGreaterThan, sympy.StrictLessThan))


def _inequality_equal(g: Any, p: Any) -> bool:
    r"""``x \geq 5`` is ``5 \leq x`` and ``-x \leq -5``: same strictness, and the two sides'
    differences proportional with a positive factor (a negative one flips the direction)."""
    gs, ps = _positive_side(g), _positive_side(p)
    if gs is None or ps is None or gs[1] != ps[1]:
        return False
    return _proportional(gs[0], ps[0], positive=True)


def _proportional(dg: Any, dp: Any, *, positive: bool) -> bool:
    """Whether ``dg == c * dp`` for a constant ``c`` that is nonzero (and positive when asked):
    ``2y - 4x - 6`` and ``y - 2x - 3`` (c = 2). ``c`` is read off at one seeded point where
    ``dp`` is defined and nonzero, then the identity is checked as any two expressions are."""
    free = sorted(dg.free_symbols | dp.free_symbols, key=str)
    if not free:
        return False  # "2 = 2" states nothing to compare
    rng = random.Random(_SEED)
    for _ in range(_TRIES):
        point = {s: Rational(rng.randint(101, 997), rng.randint(101, 997)) for s in free}
        try:
            vg, vp = dg.subs(point), dp.subs(point)
            if vp == 0 or not (vp.is_finite and vg.is_finite):
                continue
            c = sympy.nsimplify(vg / vp) if vg.has(Float) or vp.has(Float) else vg / vp
            value = sympy.N(c, _PRECISION)
        except (TypeError, ValueError, ArithmeticError, RecursionError):
            continue
        if not value.is_number or value.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
            continue
        if not _is_real(value) or value == 0 or (positive and not value > 0):
            return False
        return _expr_equal(dg, c * dp)
    return False


def _unordered_equal(xs: list, ys: list) -> bool:
    if len(xs) != len(ys):
        return False
    remaining = list(ys)
    for x in xs:
        for i, y in enumerate(remaining):
            if _equal(x, y):
                del remaining[i]
                break
        else:
            return False
    return True


_SETS = (Interval, Union, sympy.Complement, sympy.Intersection, type(sympy.S.Reals))


def _as_set(x: Any) -> Any | None:
    r"""The set of reals that ``x`` denotes when it is a set of reals or a condition on one
    variable: ``x \geq 5`` is ``[5, \infty)``, ``2 < x \leq 5`` is ``(2, 5]``, ``x < 2 \text{ or }
    x > 3`` (parsed as a set of conditions) their union, ``x \in [5, \infty)`` the interval;
    None otherwise."""
    if isinstance(x, _SETS) or x is sympy.S.EmptySet:
        return x
    if isinstance(x, Eq) and isinstance(x.rhs, _SETS) and isinstance(x.lhs, sympy.Symbol):
        return x.rhs  # "x \in [5, \infty)" reads as x = [5, oo)
    conditions = list(x.args) if isinstance(x, FiniteSet) else [x]
    if not conditions or not all(isinstance(c, (*_INEQUALITIES, sympy.And)) for c in conditions):
        return None
    free = set().union(*(c.free_symbols for c in conditions))
    if len(free) != 1:
        return None
    try:
        sets = [c.as_set() for c in conditions]
        # "x < 2 or x > 3" is a union; "x \geq 5, x \geq 6" offers two answers whose union
        # happens to be the first: conditions that overlap are no union.
        for i, a in enumerate(sets):
            if any(a.intersect(b) is not sympy.S.EmptySet for b in sets[i + 1 :]):
                return None
        return Union(*sets)
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return None


def _set_equal(g: Any, p: Any) -> bool:
    """Two sets of reals: intervals by endpoints and openness, unions as unordered collections
    of intervals, anything else (``\\mathbb{R} \\setminus \\{0\\}``) by an empty
    symmetric difference."""
    if isinstance(g, Interval) and isinstance(p, Interval):
        return (
            g.left_open == p.left_open
            and g.right_open == p.right_open
            and _expr_equal(g.start, p.start)
            and _expr_equal(g.end, p.end)
        )
    if isinstance(g, Union) and isinstance(p, Union):
        return _unordered_equal(list(g.args), list(p.args))
    try:
        return bool(sympy.SymmetricDifference(g, p).simplify() is sympy.S.EmptySet) or bool(
            g.symmetric_difference(p) is sympy.S.EmptySet
        )
    except (TypeError, ValueError, NotImplementedError, AttributeError):
        return False


def _equal(g: Any, p: Any) -> bool:
    """Whether the parsed answers are the same object: tuples in order, sets unordered, a tuple
    never a set (``(2, 1)`` is not ``\\{1, 2\\}``), a condition on one variable the set it
    describes (``x > 5`` is ``(5, \\infty)``)."""
    if isinstance(g, MatrixBase) or isinstance(p, MatrixBase):
        if not (isinstance(g, MatrixBase) and isinstance(p, MatrixBase)) or g.shape != p.shape:
            return False
        return all(_equal(x, y) for x, y in zip(g, p))
    if isinstance(g, Eq) and isinstance(p, Eq):
        if _equal(g.lhs, p.lhs) and _equal(g.rhs, p.rhs):
            return True
        if _equal(g.lhs, p.rhs) and _equal(g.rhs, p.lhs):
            return True
        if all(isinstance(x, sympy.Expr) for x in (*g.args, *p.args)):
            return _proportional(g.lhs - g.rhs, p.lhs - p.rhs, positive=False)
        return False
    if isinstance(g, _INEQUALITIES) and isinstance(p, _INEQUALITIES):
        return _inequality_equal(g, p)
    g_set, p_set = _as_set(g), _as_set(p)
    if g_set is not None and p_set is not None:
        return _set_equal(g_set, p_set)
    if isinstance(g, _INEQUALITIES) or isinstance(p, _INEQUALITIES):
        return False
    if isinstance(g, Eq):  # "x = 2" against "2"
        return isinstance(g.lhs, sympy.Symbol) and _equal(g.rhs, p)
    if isinstance(p, Eq):
        return isinstance(p.lhs, sympy.Symbol) and _equal(g, p.rhs)
    if _open_pair(g) and isinstance(p, Tuple) or isinstance(g, Tuple) and _open_pair(p):
        # "(1, 2)" parses as an open interval when 1 < 2 and as a tuple otherwise: the same
        # writing, read in order.
        gs, ps = _pair(g), _pair(p)
        return len(gs) == len(ps) and all(_equal(x, y) for x, y in zip(gs, ps))
    if isinstance(g, FiniteSet) and isinstance(p, FiniteSet):
        return _unordered_equal(list(g.args), list(p.args))
    if isinstance(g, Tuple) and isinstance(p, Tuple):
        return len(g) == len(p) and all(_equal(x, y) for x, y in zip(g, p))
    if isinstance(g, sympy.Expr) and isinstance(p, sympy.Expr):
        return _expr_equal(g, p)
    try:
        return bool(g == p)
    except (TypeError, ValueError):
        return False


def _open_pair(x: Any) -> bool:
    return isinstance(x, Interval) and x.left_open and x.right_open


def _pair(x: Any) -> tuple:
    return (x.start, x.end) if isinstance(x, Interval) else tuple(x.args)


def _math_verify_fallback(gold: str, pred: str) -> bool:
    from math_verify import parse, verify

    g = parse(f"${gold}$", parsing_timeout=None)
    p = parse(f"${pred}$", parsing_timeout=None)
    if not g or not p:
        return False
    return bool(verify(g, p, timeout_seconds=None))


# "and" between conditions on one variable: their intersection ("x > 2 \text{ and } x < 3" is
# (2, 3); "x < 2 and x > 3" is empty). The parser reads "and" as a list, which would be a union.
_AND_RE = re.compile(r"\\text\{\s*and\s*\}|\band\b|\\land(?![A-Za-z])|\\wedge(?![A-Za-z])")
_INEQUALITY_SIGN_RE = re.compile(r"[<>\u2264\u2265]|\\(?:[lg]eq?(?:slant)?|[lg]t)(?![A-Za-z])")


def _conjunction_set(text: str) -> Any | None:
    """The set of reals that conditions joined by "and" denote together (their intersection),
    or None when ``text`` is no such conjunction. Raises when a condition cannot be parsed."""
    pieces = _AND_RE.split(text)
    if len(pieces) < 2 or not all(_INEQUALITY_SIGN_RE.search(piece) for piece in pieces):
        return None
    sets = [_as_set(parse_latex_answer(piece)) for piece in pieces]
    if any(s is None for s in sets):
        raise ValueError(f"a condition that names no set of reals: {text[:80]!r}")
    if len({sym for piece_set in sets for sym in getattr(piece_set, "free_symbols", ())}) > 0:
        raise ValueError(f"a condition with a free parameter: {text[:80]!r}")
    return sympy.Intersection(*sets)


def symbolic_equiv(gold: str, pred: str, percent: bool = False) -> bool:
    """Whether two LaTeX answers denote the same mathematical object (see the module doc).
    With ``percent`` (the gold is a percent, the prediction is not), the prediction may also
    be the gold as a fraction: ``\\frac{\\sqrt{2}}{2}`` for ``50\\sqrt{2}\\%``.

    Raises ``ValueError`` when the prediction cannot be parsed: math-verify would read what it
    can and drop the rest (``\\neq 5`` is 5 to it, ``5 \\vee 6`` is 6, ``\\approx 5`` is 5),
    so it decides only for a gold our parser cannot read, against a prediction it can.
    """
    try:
        joined = _conjunction_set(pred) if _AND_RE.search(pred) else None
        p = parse_latex_answer(pred) if joined is None else joined
    except Exception:  # noqa: BLE001 - latex2sympy raises many types
        raise ValueError(f"prediction is not parsable LaTeX: {pred[:80]!r}") from None
    try:
        joined = _conjunction_set(gold) if _AND_RE.search(gold) else None
        g = parse_latex_answer(gold) if joined is None else joined
    except Exception:  # noqa: BLE001 - latex2sympy raises many types; defer to math-verify
        return _math_verify_fallback(gold, pred)
    if _equal(g, p):
        return True
    return percent and isinstance(p, sympy.Expr) and _equal(g, 100 * p)
