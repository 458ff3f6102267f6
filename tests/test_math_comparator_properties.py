r"""Property tests of the comparator (``verifiers.math._compare``), derandomised:

- two exact values that differ by a tiny exact amount are never equal, however large the
  values or small the difference (the old numeric rule agreed to 50 digits and no more);
- an ordered tuple and a permutation of it are equal only when they agree element by element;
- a value and an equivalent dressing of it (fraction, decimal, mixed number, percent when the
  gold is a percent) are equal, and the same dressings of another value are not.
"""

from __future__ import annotations

import os
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifiers.math import _compare

# CI runs a fixed, derandomised profile; RLVR_PROPERTY_SCALE=10 (by hand) runs ten times as
# many examples, still derandomised.
_SCALE = max(1, int(os.environ.get("RLVR_PROPERTY_SCALE", "1")))
FAST = settings(
    max_examples=300 * _SCALE,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
# Tuples go to the sympy worker: fewer examples.
SLOW = settings(
    max_examples=60 * _SCALE,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
TIMEOUT = 10.0


def _equal(gold: str, pred: str) -> bool:
    return _compare(gold, pred, TIMEOUT)[0] is True


def _latex(q: Fraction) -> str:
    sign = "-" if q < 0 else ""
    q = abs(q)
    return (
        f"{sign}{q.numerator}"
        if q.denominator == 1
        else rf"{sign}\frac{{{q.numerator}}}{{{q.denominator}}}"
    )


@FAST
@given(
    base=st.integers(2, 12),
    exponent=st.integers(1, 400),
    offset=st.integers(-(10**6), 10**6),
    tiny=st.integers(1, 400),
)
def test_exact_values_differing_by_a_tiny_exact_amount_are_never_equal(
    base, exponent, offset, tiny
):
    value = rf"{base}^{{{exponent}}} + {offset}"
    assert not _equal(value, rf"{base}^{{{exponent}}} + {offset + 1}")
    assert not _equal(value, rf"{value} + 10^{{-{tiny}}}")
    assert not _equal(rf"\frac{{1}}{{{value}}}", rf"\frac{{1}}{{{value} + 1}}")
    assert _equal(value, rf"{offset} + {base}^{{{exponent}}}")


@FAST
@given(n=st.integers(1, 10**120), square=st.booleans())
def test_a_radical_and_a_neighbouring_exact_value_are_never_equal(n, square):
    root = rf"\sqrt{{{n * n if square else n}}}"
    if square:
        assert _equal(root, str(n)) and not _equal(root, str(n + 1))
    else:
        assert not _equal(root, rf"\sqrt{{{n + 1}}}")


@SLOW
@given(
    items=st.lists(st.integers(-20, 20), min_size=2, max_size=4),
    data=st.data(),
)
def test_permuted_tuples_are_equal_only_elementwise(items, data):
    perm = data.draw(st.permutations(items))
    gold = "(" + ", ".join(map(str, items)) + ")"
    pred = r"\left(" + ", ".join(map(str, perm)) + r"\right)"
    assert _equal(gold, pred) == (list(perm) == items)
    # Written as a set, a tuple is never paid.
    assert not _equal(gold, r"\{" + ", ".join(map(str, perm)) + r"\}")


@SLOW
@given(items=st.lists(st.integers(-20, 20), min_size=2, max_size=4, unique=True), data=st.data())
def test_a_set_equals_any_permutation_of_itself(items, data):
    perm = data.draw(st.permutations(items))
    gold = r"\{" + ", ".join(map(str, items)) + r"\}"
    assert _equal(gold, r"\{" + ", ".join(map(str, perm)) + r"\}")


def _dressings(q: Fraction) -> list[str]:
    """Spellings of ``q`` a grader must accept: fraction, \\dfrac, a/b, mixed number, decimal
    when it terminates."""
    out = [_latex(q), _latex(q).replace(r"\frac", r"\dfrac")]
    if q.denominator != 1:
        out.append(f"{q.numerator}/{q.denominator}")
        whole, rest = divmod(abs(q.numerator), q.denominator)
        if whole and q > 0:
            out.append(rf"{whole}\frac{{{rest}}}{{{q.denominator}}}")
    d = q.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d == 1:
        digits = 0
        while (q * 10**digits).denominator != 1:
            digits += 1
        out.append(f"{float(q):.{digits}f}" if digits < 15 else str(q))
    return out


fractions = st.builds(
    Fraction, st.integers(-(10**6), 10**6), st.sampled_from([1, 2, 3, 4, 5, 8, 10, 16, 25, 40, 125])
)


@FAST
@given(q=fractions, other=fractions)
def test_a_value_equals_its_dressings_and_another_value_does_not(q, other):
    for pred in _dressings(q):
        assert _equal(_latex(q), pred), pred
        assert _equal(pred, _latex(q)), pred
        if other != q:
            assert not _equal(_latex(other), pred), pred


@FAST
@given(q=fractions.filter(lambda q: q > 0))
def test_a_percent_gold_takes_the_fraction_or_the_number_of_percent(q):
    percent = q * 100
    if percent.denominator != 1 or percent > 10**6:
        return
    gold = rf"{percent.numerator}\%"
    for pred in _dressings(q):
        assert _equal(gold, pred), pred
    assert _equal(gold, str(percent.numerator))
    assert not _equal(gold, _latex(q * 10))
    # Against a gold without a percent, X% is X of 100 (40\% for \frac{2}{5}), except when the
    # gold is a plain number of at least 1: then the sign dresses the gold's own number (10\% is
    # 10 in MATH) and X of 100 is not read (one reading per gold, never both).
    plain = _latex(q)
    if q.denominator == 1 and q >= 1:
        assert _equal(plain, rf"{plain}\%")
        assert not _equal(plain, rf"{percent.numerator}\%")
    else:
        assert _equal(plain, rf"{percent.numerator}\%")
        if percent != q:
            assert not _equal(plain, rf"{q.numerator}/{q.denominator}\%")


pairs = st.tuples(st.integers(-9, 9), st.integers(-9, 9)).map(lambda p: f"({p[0]}, {p[1]})")


@SLOW
@given(members=st.lists(pairs, min_size=2, max_size=4, unique=True), data=st.data())
def test_a_joined_list_pays_for_a_solution_set_with_the_same_members_only(members, data):
    # The reader joins several commitments with ", ": a solution set in any order is paid,
    # one member changed, dropped or added is not, and a single-value gold never takes a list.
    gold = ",".join(m.replace(" ", "") for m in members)
    perm = data.draw(st.permutations(members))
    assert _equal(gold, ", ".join(perm))
    extra = data.draw(pairs.filter(lambda p: p not in members))
    assert not _equal(gold, ", ".join([*perm[:-1], extra]))
    assert not _equal(gold, ", ".join(perm[:-1]))
    assert not _equal(gold, ", ".join([*perm, extra]))
    assert not _equal(members[0], ", ".join(perm))


_FRAC_COMMANDS = st.sampled_from([r"\frac", r"\dfrac", r"\tfrac"])
_GAPS = st.sampled_from(["", " ", "\\ ", "\\,", "~", "  "])


@FAST
@given(whole=st.integers(0, 999), num=st.integers(0, 12), den=st.integers(1, 12),
       frac=_FRAC_COMMANDS, gap=_GAPS, first=st.booleans())
def test_a_number_beside_a_fraction_is_a_mixed_number_or_two_values(whole, num, den, frac, gap,
                                                                     first):
    # h17, issue 30: "5 \frac{2}{2}" was read as the product 5 (and paid for 5); a whole number
    # of 1 or more just before a proper fraction with a numerator is a mixed number, and any
    # other number beside a fraction of digits is two values, equal to none of the readings.
    fraction = f"{frac}{{{num}}}{{{den}}}"
    text = f"{whole}{gap}{fraction}" if first else f"{fraction}{gap}{whole}"
    q = Fraction(num, den)
    mixed = first and whole >= 1 and 0 < q < 1
    readings = {Fraction(whole), q, whole * q, whole + q}
    for value in readings:
        gold = f"{value.numerator}/{value.denominator}" if value.denominator > 1 else str(value)
        assert _equal(gold, text) is (mixed and value == whole + q), (gold, text)
