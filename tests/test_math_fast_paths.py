r"""The comparator's in-process short cuts (issue 30, item 6: speed against math-verify) give
the verdict the longer path gives: two bare numbers are compared at once, and a complex
constant (``6 - 5i``) is evaluated in-process instead of in the sympy worker."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import verifiers.math as math_module
import verifiers.math_compare as compare_module
from verifiers.latex_numeric import compare_constants, evaluate_constant
from verifiers.math import _compare, math_check

_digits = st.text("0123456789", min_size=1, max_size=20)
_plain = st.builds(
    lambda sign, whole, decimals: sign + whole + (f".{decimals}" if decimals else ""),
    st.sampled_from(["", "-", "+"]),
    _digits,
    st.one_of(st.just(""), _digits),
)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(_plain, _plain)
def test_two_bare_numbers_get_the_verdict_of_the_full_path(gold, pred):
    # A leading space keeps a side off the short cut: the full path strips it and reads the
    # same number, so both verdicts must agree.
    fast = _compare(gold, pred, 5.0)
    full = _compare(" " + gold, " " + pred, 5.0)
    assert fast[:2] == full[:2]
    assert fast[2]["path"] == full[2]["path"] == "exact"


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        ("18", "18", True),
        ("18", "018", True),
        ("18", "18.0", True),
        ("-5", "-5.00", True),
        ("18", "19", False),
        ("0.25", "25", False),
        # a shorter decimal than a gold with a finite decimal expansion is another value
        # (round 10, h29: 0.494313765587 was paid for 0.4943137655873906)
        ("0.33333333333333333", "0.3333333333333", False),
        # a decimal never pays for a gold it only approaches (round 11)
        ("\\frac{1}{3}", "0.3333333333333", False),
        ("0.33333333333333333", "0.33333333333334", False),
    ],
)
def test_bare_numbers(gold, pred, equal):
    assert _compare(gold, pred, 5.0)[0] is equal


def _record_parses(monkeypatch, *, by_name: bool) -> list[str]:
    """Every call of the number parsers by the math reward (the entry point and the
    comparator), recorded as the parser's name or as the text it parsed."""
    calls: list[str] = []
    for module in (math_module, compare_module):
        for name in ("parse_quantity", "parse_number"):
            if hasattr(module, name):
                real = getattr(module, name)
                monkeypatch.setattr(
                    module, name,
                    lambda text, _real=real, _name=name: calls.append(_name if by_name else text) or _real(text),
                )
    return calls


def test_a_gsm8k_check_reads_a_bare_integer_once(monkeypatch):
    # The dressing parser (units, words, LaTeX) is for dressed numbers: a bare "72" on both
    # sides used to go through it three times per check (gold, prediction, and the
    # prediction again for display).
    calls = _record_parses(monkeypatch, by_name=True)
    verdict = math_check("She has 8 * 9 = 72 eggs.\n#### 72", "72")
    assert (verdict.reward, verdict.pred, verdict.details["path"]) == (1.0, "72", "exact")
    assert calls == []
    verdict = math_check("#### 073.50", "73.5")
    assert (verdict.reward, verdict.pred) == (1.0, "73.5")
    assert calls == []


def test_the_prediction_is_parsed_once(monkeypatch):
    # Stage 3 parses each side once: the value shown in the verdict is the one compared, not
    # a second parse of the prediction.
    calls = _record_parses(monkeypatch, by_name=False)
    verdict = math_check(r"so the answer is $\boxed{\frac{28}{6}}$.", r"\frac{14}{3}")
    assert (verdict.reward, verdict.pred, verdict.details["path"]) == (1.0, "14/3", "exact")
    assert sorted(calls) == sorted([r"\frac{14}{3}", r"\frac{28}{6}"])
    # An item of a list decided (a labelled gold): the list is shown whole.
    verdict = math_check(r"\boxed{4, 6}", "AB=4, CD=5")
    assert (verdict.reward, verdict.pred, verdict.details["path"]) == (0.0, "4, 6", "exact")


COMPLEX = [
    ("6 - 5i", r"\sqrt{51}", False),
    ("-50", "6 - 5i", False),
    ("6+9i", "3", False),
    ("1+2i", "2i+1", True),
    ("-1", "i^2", True),
    (r"\frac{1}{i}", "-i", True),
    ("(1+i)^2", "2i", True),
    (r"\frac{1+i}{1-i}", "i", True),
    (r"\frac{3}{5}+\frac{4}{5}i", "0.6+0.8i", True),
    ("(2+i)(2-i)", "5", True),
    (r"10^{60}i + i", r"10^{60}i", False),
]


@pytest.mark.parametrize(("gold", "pred", "equal"), COMPLEX)
def test_complex_constants_are_compared_in_process(gold, pred, equal):
    assert compare_constants(gold, pred) is equal


@pytest.mark.parametrize(("gold", "pred", "equal"), COMPLEX)
def test_the_in_process_verdict_on_complex_constants_is_the_symbolic_one(gold, pred, equal):
    from verifiers.latex_equiv import symbolic_equiv

    assert bool(symbolic_equiv(gold, pred)) is equal


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        (r"\sqrt{i}", "1"),  # roots and non-integer powers have branches: sympy chooses
        ("i^{1/2}", "1"),
        ("2^{i}", "1"),
        ("i^{100000}", "1"),  # an exponent past MAX_EXPONENT
        ("0^{-1}", "i"),
        ("xi", "1"),
    ],
)
def test_complex_forms_with_branches_or_variables_are_left_to_sympy(gold, pred):
    assert compare_constants(gold, pred) is None


def test_the_real_evaluator_stays_real():
    # The screens that read a constant's decimal digits take real values only.
    assert evaluate_constant("2i") is None
    assert evaluate_constant("i^2") is None


@pytest.mark.parametrize(
    ("gold", "pred", "equal"),
    [
        (r"(2+i)^{9999}(3+i)^{9999}", r"(3+i)^{9999}(2+i)^{9999}", True),  # 0.8 s by exp/log
        (r"(2+i)^{9999}", r"(2+i)^{9998}(2+i)", True),
        (r"(1+i)^{9999}", r"(1+i)^{9999}+10^{-3000}", False),
        (r"(1+i)^{-3}", r"\frac{1}{(1+i)^3}", True),
    ],
)
def test_large_complex_powers_are_quick_and_exact(gold, pred, equal):
    # In-process, outside any deadline: as quick as the real constants' path must be.
    start = time.perf_counter()
    assert compare_constants(gold, pred) is equal
    assert time.perf_counter() - start < 0.5
