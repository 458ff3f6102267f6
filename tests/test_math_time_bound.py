r"""No answer makes a math comparison run past its deadline, in-process paths included.

The family below is what a policy finds when long outputs are cheap: power towers spelled with
extra braces, products in the exponent, factorials of products, bases in [0.25, 0.5) whose
power underflows instead of overflowing (the bound used to be a magnitude estimate, 0 there).
"""

from __future__ import annotations

import time

import pytest

from verifiers.latex_guard import runaway
from verifiers.latex_numeric import compare_constants, evaluate_constant
from verifiers.math import math_check

PATHOLOGICAL = [
    r"0.3^{{1.9}^{9999 \cdot 5}}",  # 276 s before
    r"0.3^{{{1.9}}^{{9999}}}",
    r"0.49^{1.9^{9999}}",
    r"0.3^{9999 \cdot 5}",
    r"0.3^{9999 \times 9999}",
    r"0.26^{(99999)}",
    r"2^{9999 \cdot 5}",
    r"{2}^{{{99999}}}",
    r"1.0001^{10^{9}}",
    r"(1+10^{-9})^{10^{9}}",
    r"10^{10^{10}}",
    r"2^{2^{2^{2^{2^{2}}}}}",
    r"9^{9^{9}}",
    r"e^{e^{e^{100}}}",
    r"\left(9999 \cdot 5\right)!",
    r"{99999}!",
    r"(10^{4} \cdot 3)!",
    r"99999!!",
    r"\sqrt[10^{9000}]{2}",
    r"\sqrt[9999 \cdot 9999]{0.3}",
    "x^{" + "9" * 60 + "}",
    "2^" * 30 + "2",
    "{" * 200 + "2" + "}" * 200,
    r"\frac{1}{" * 60 + "2" + "}{1}" * 60,
    "(" * 40 + "x" + ")" * 40,  # 5.4 s at the 5 s default deadline before the nesting guard
    "((1+1))" + "!" * 40,  # 3.8 s in the worker before the chain guard (h18's T1)
    "((2))" + "!" * 30,
]


@pytest.mark.parametrize("answer", PATHOLOGICAL, ids=lambda a: a[:24])
def test_pathological_answers_return_within_the_deadline(answer):
    for completion, gold in ((rf"\boxed{{{answer}}}", "5"), ("5", answer)):
        start = time.perf_counter()
        verdict = math_check(completion, gold, timeout=2.0)
        elapsed = time.perf_counter() - start
        assert verdict.reward in (0.0, None), (answer, verdict)
        # 2 s deadline plus a cold worker's first import of sympy on a loaded machine.
        assert elapsed < 2.0 + 15.0, (answer, elapsed)


@pytest.mark.parametrize("answer", PATHOLOGICAL, ids=lambda a: a[:24])
def test_in_process_paths_are_fast_on_pathological_answers(answer):
    """The exact, string, guard and numeric paths run in the caller: each must be quick."""
    start = time.perf_counter()
    runaway(answer)
    evaluate_constant(answer)
    compare_constants(answer, "5")
    compare_constants("5", answer)
    assert time.perf_counter() - start < 0.5, answer


@pytest.mark.parametrize(
    "answer",
    [r"0.3^{{1.9}^{9999 \cdot 5}}", r"2^{9999 \cdot 5}", r"(9999 \cdot 5)!", r"0.3^{(99999)}",
     "((2))!!!", "(((2)))! ! ! !",
     # (h58: a power in parentheses before "!" or "!!"; the brackets' strip took the power's
     # closing brace and read "10^{7", 4.5 s in the worker)
     r"(10^{7})!!", r"(10^{6})!", r"(2\cdot 10^{6})!!", r"(5\cdot 10^{5})!!", r"{(10^{6})}!"],
)
def test_the_guard_sees_through_braces_products_and_parentheses(answer):
    assert runaway(answer) is not None


@pytest.mark.parametrize(
    "answer",
    [
        r"2^{2005} + 2^{2006}",
        r"x^{2} + 2^{10}",
        r"10!",
        r"5!!",
        r"1,\!000,\!000",
        r"\frac{9!}{2!\,7!}",
        r"3^{-2}",
        r"5^\circ",
    ],
)
def test_the_guard_lets_ordinary_answers_through(answer):
    assert runaway(answer) is None


def test_exponent_is_bounded_by_itself_not_by_a_magnitude_estimate():
    # 0.3 has magnitude 0 in the old estimate; the exponent 49995 alone is over the bound.
    assert evaluate_constant(r"0.3^{49995}") is None
    assert evaluate_constant(r"0.3^{9999}") is not None
    assert evaluate_constant(r"2^{2005}") is not None


def test_a_megabyte_of_digits_in_a_box_is_quick():
    start = time.perf_counter()
    verdict = math_check(r"\boxed{" + "9" * 1_000_000 + "}", "5")
    assert verdict.reward == 0.0
    assert time.perf_counter() - start < 5.0


_LONG = [
    "1" + " " * 999,
    "√ " * 500,
    "x = " * 250,
    r"\text{" * 150,
    "0." + "3" * 998,
    r"0.\overline{" + "3" * 900 + "}",
    "2^{" * 20 + "9" * 100,
    r"\frac{\sqrt{3}}{3} \approx " + "5" * 900,
    "1 or " * 200,
    "(C)" * 300,
    r"\sqrt{" * 150 + "2" + "}" * 150,
]


@pytest.mark.parametrize(
    "pred", _LONG + [p * 1000 for p in _LONG], ids=lambda p: f"{p[:8]}..{len(p)}chars"
)
@pytest.mark.parametrize("gold", ["5", "1, -2", r"\frac{1}{12}", r"\text{(C)}", r"x \geq 5"])
def test_every_in_process_step_is_quick(monkeypatch, gold, pred):
    """Everything before the worker (exact, string, forms, guard, numeric) on answers up to and
    far beyond MAX_ANSWER_CHARS; the worker itself is stubbed out, it has its own deadline."""
    import verifiers.math_compare as math_compare

    monkeypatch.setattr(math_compare, "run_with_deadline", lambda *args, **kwargs: False)
    start = time.perf_counter()
    equal, _, _ = math_compare._compare(gold, pred, 5.0)
    assert equal is False
    assert time.perf_counter() - start < 0.5, pred[:40]


def test_deep_brackets_are_refused_before_the_parser_and_shallow_ones_are_not():
    deep = r"\boxed{" + "(" * 40 + "x" + ")" * 40 + "}"
    start = time.perf_counter()
    verdict = math_check(deep, "x + 1")
    assert time.perf_counter() - start < 1.0
    assert (verdict.reward, verdict.reason, verdict.details["path"]) == (0.0, "timeout", "guard")
    assert "nested" in verdict.details["guard"]
    assert runaway(r"\left(\frac{(x+1)^{2}}{[x-1]}\right)") is None
