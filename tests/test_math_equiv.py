"""verifiers.math: the public API, the exact fast path, and hard deadlines on hostile input."""

from __future__ import annotations

import threading
import time

import pytest

import verifiers.math_compare as math_compare
from verifiers.deadline import warm_up
from verifiers.math import extract_answer, is_equiv, math_check, math_reward
from verifiers.types import Verdict

# Far above the deadlines below, far below what the hostile inputs would take in sympy.
SLACK_S = 30.0


def test_the_one_line_example_from_the_issue():
    assert math_reward(r"... so the answer is $\boxed{\frac{1}{2}}$.", answer="0.5") == 1.0


def test_check_returns_a_verdict_with_everything_needed_to_debug():
    v = math_check(r"We find $x = \boxed{\dfrac{3}{4}}$.", r"\frac{3}{4}")
    assert isinstance(v, Verdict)
    assert (v.reward, v.reason, v.pred, v.gold) == (1.0, "correct", "0.75", r"\frac{3}{4}")
    assert v.details == {"source": "boxed", "path": "exact"}
    v = math_check("no idea", "5")
    assert (v.reward, v.reason, v.pred) == (0.0, "no_answer", None)


def test_numbers_never_leave_the_process():
    # The exact path answers without a worker round trip or sympy.
    for pred, gold, expected in [
        ("1,000", "1000", 1.0),
        ("0.25", "25", 0.0),
        ("3 1/2", "3.5", 1.0),
    ]:
        v = math_check(f"The answer is {pred}.", gold)
        assert (v.reward, v.details["path"]) == (expected, "exact")


def test_gold_is_read_as_latex_never_as_its_last_number():
    assert math_reward(r"\boxed{2}", r"2\sqrt{2}") == 0.0
    assert math_reward(r"\boxed{2\sqrt{2}}", r"2\sqrt{2}") == 1.0
    assert math_reward(r"\boxed{\sqrt{8}}", r"2\sqrt{2}") == 1.0


def test_gold_may_be_a_boxed_solution_or_a_gsm8k_row():
    assert math_reward("#### 72", "Natalia sold 48+24 = <<48+24=72>>72 clips.\n#### 72") == 1.0
    assert math_reward(r"\boxed{4}", r"The area is $\boxed{4}$.") == 1.0


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        (r"\frac{1}{2}", "0.5", True),
        (r"\pi", "3.14", False),
        ("0.25", "25", False),
        ("123450", "123456", False),
        (r"\frac{1}{2^{99}}", r"\frac{1}{2^{98}}", False),
        (r"\frac{1}{2^{99}}", r"2^{-99}", True),
        ("3", "3 or 4", False),
        ("(1,2)", "(1, 2)", True),
        (r"\{1,2\}", r"\{2,1\}", True),
        (r"x \in [2, 5]", "[2,5]", True),
    ],
)
def test_is_equiv(gold, pred, expected):
    assert is_equiv(gold, pred) is expected


def test_self_correction_counts_the_last_answer_only_inside_a_reasoning_block():
    # Issue 30: all commitments in the final answer's paragraph must agree, so a correction
    # inside one paragraph offers two answers; so does one in a new paragraph (round 17: an
    # earlier answer stands whatever follows it); inside a reasoning block it is the working.
    text = r"So $\boxed{5}$. Wait, I dropped a sign: the result is $\boxed{-5}$."
    assert extract_answer(text) == "-5"
    assert math_reward(text, "-5") == 0.0
    assert math_reward(text, "5") == 0.0
    later = r"So $\boxed{5}$." + "\n\nWait, I dropped a sign: the result is $\\boxed{-5}$."
    assert math_reward(later, "-5") == 0.0
    assert math_reward(later, "5") == 0.0
    thought = "<think>" + later + "</think>\n\nThe result is $\\boxed{-5}$."
    assert math_reward(thought, "-5") == 1.0
    assert math_reward(thought, "5") == 0.0


@pytest.mark.parametrize(
    ("completion", "reason"),
    [
        (r"The answer is $\boxed{10^{10^{10^{10}}}}$.", "timeout"),
        (r"The answer is $\boxed{9^{9^9}}$.", "timeout"),
        # a box longer than MAX_BOX_CHARS is no answer: refused at extraction, with the reason
        ("Let me think. " * 3000 + r"\boxed{" + "1+" * 25_000 + "1}", "malformed"),  # ~92k
        (r"\boxed{" + "(" * 50_000 + "}", "malformed"),
        (r"\boxed{" + "1+" * 4_000 + "1}", "timeout"),  # inside the box limit: the guard
        (r"\boxed{2^{1000000}}", "timeout"),
    ],
    ids=["tower-10", "tower-9", "50k-sum", "50k-parens", "8k-sum", "big-exponent"],
)
def test_hostile_answers_get_reward_zero_reason_timeout_quickly(completion, reason):
    start = time.monotonic()
    v = math_check(completion, "1", timeout=1.0)
    assert time.monotonic() - start < SLACK_S
    assert (v.reward, v.reason) == (0.0, reason)


def test_the_deadline_itself_stops_sympy_when_the_guard_is_bypassed(monkeypatch):
    # Without the up-front guard the towers reach sympy in a worker; only the kill from
    # outside can end that work (sympy/gmpy hold the GIL inside one C call).
    monkeypatch.setattr(math_compare, "_guard", lambda text: None)
    warm_up(1, "verifiers.latex_equiv")
    start = time.monotonic()
    v = math_check(r"\boxed{10^{10^{10^{10}}}}", "1", timeout=0.5)
    assert time.monotonic() - start < SLACK_S
    assert (v.reward, v.reason, v.details["path"]) == (0.0, "timeout", "symbolic")
    v = math_check(r"\boxed{" + "1+" * 4_900 + "1}", "1", timeout=0.5)
    assert (v.reward, v.reason) == (0.0, "timeout")


def test_deadline_holds_when_called_from_threads():
    results: list[str] = []

    def check() -> None:
        results.append(math_check(r"\boxed{9^{9^9}}", "1", timeout=0.5).reason)
        results.append(math_check(r"\boxed{\frac{\sqrt{3}}{3}}", r"\frac{1}{\sqrt3}").reason)

    threads = [threading.Thread(target=check) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(results) == ["correct"] * 3 + ["timeout"] * 3


@pytest.mark.parametrize(
    ("kwargs", "match"), [({"timeout": 0}, "timeout"), ({"timeout": "5"}, "timeout")]
)
def test_bad_timeout_is_a_clear_error(kwargs, match):
    with pytest.raises(ValueError, match=match):
        math_check("1", "1", **kwargs)


def test_bad_argument_types_name_the_argument():
    # a completion that is not text is a wrong answer (reward 0), see test_format.py
    with pytest.raises(TypeError, match="answer"):
        math_check("1", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="pred"):
        is_equiv("1", 1)  # type: ignore[arg-type]


def test_unparsable_text_is_wrong_not_an_error():
    v = math_check(r"\boxed{\frac{}{}\sqrt}", r"\frac{1}{2}")
    assert v.reward == 0.0
    assert v.reason in ("wrong", "parse_error")


def test_importing_verifiers_math_does_not_import_sympy_or_torch():
    import subprocess
    import sys

    code = (
        "import sys, verifiers.math, verifiers.gsm8k; "
        "print('sympy' in sys.modules, 'torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(
    ("completion", "gold", "reason"),
    [
        # \text{} words are prose after normalisation: "not 5" is an expression, not 5
        (r"\boxed{\text{not } 5}", "5", "wrong"),
        (r"\boxed{5 thousand}", "5", "wrong"),
        ("The answer is 5 thousand.", "5", "wrong"),
        (r"\boxed{5 thousand}", "5000", "correct"),
        (r"\boxed{5 squared}", "5", "wrong"),
        (r"\boxed{5 \text{ m}}", "5 cm", "wrong"),
        (r"\boxed{5 \text{ cm}}", "5 cm", "correct"),
        (r"\boxed{5 \text{ centimeters}}", r"5\text{ cm}", "correct"),
        (r"\boxed{5 \text{ cm}}", "5", "correct"),  # a unit the gold leaves out is dressing
        (r"\boxed{5}", "5 cm", "correct"),
        (r"\boxed{18 \text{ cents}}", r"\$18", "wrong"),
    ],
)
def test_only_known_units_are_dressing_and_units_must_agree(completion, gold, reason):
    v = math_check(completion, gold)
    assert (v.reward, v.reason) == (1.0 if reason == "correct" else 0.0, reason), v


@pytest.mark.parametrize(
    ("completion", "gold", "reason"),
    [
        (r"\boxed{\neq 5}", "5", "malformed"),
        (r"\boxed{\to 6}", "6", "malformed"),
        (r"\boxed{5?}", "5", "malformed"),
        (r"\boxed{\phantom{5}}", "5", "malformed"),
        (r"\boxed{\approx 5}", "5", "hedged"),  # an approximation is a hedge (issue 22)
        (r"\boxed{\implies 5}", "5", "malformed"),
        (r"\boxed{5 \ldots}", "5", "malformed"),
        (r"\boxed{5 \;\text{(wrong)}}", "5", "hedged"),  # issue 30 r3: a parenthesis is read by the tail allow-list
        (r"\boxed{5 \vee 6}", "5", "hedged"),
        (r"\boxed{5 \vee 6}", "6", "hedged"),
        # math-verify would read these as the last number; our parser cannot read them at all
        (r"\boxed{5 \wedge 6}", "6", "malformed"),
        (r"\boxed{5 | 6}", "6", "parse_error"),
        (r"\boxed{\forall 5}", "5", "malformed"),
        (r"\boxed{\dagger 5}", "5", "parse_error"),
        # the same tokens where the gold uses them are the answer
        (r"\boxed{x \neq 5}", r"x \ne 5", "correct"),
        (r"\boxed{x \neq 5}", r"x \neq 5", "correct"),
        (r"\boxed{\text{(C)}}", r"\text{(C)}", "correct"),
        (r"\boxed{\text{Monday}}", r"\text{Monday}", "correct"),
    ],
)
def test_garbage_around_the_gold_number_scores_zero_with_a_reason(completion, gold, reason):
    v = math_check(completion, gold, timeout=10.0)
    assert (v.reward, v.reason) == (1.0 if reason == "correct" else 0.0, reason), v


@pytest.mark.parametrize(
    ("completion", "gold"),
    [
        ("The answer is $5$ or $6$", "5"),
        (r"The answer is \(5\), or maybe \(6\).", "5"),
        ("6 or possibly 7", "6"),
        ("6 or possibly 7", "7"),
        ("The answer is 6 or possibly 7.", "7"),
        ("So we get 6, 7", "7"),
        ("6, 7", "6"),
        (r"\boxed{6, 7}", "6"),
        (r"\boxed{6; 7}", "7"),
        ("The answer is $5$, $6$.", "5"),
        ("The answer is 5. no wait", "5"),
        ("... 5. no wait", "5"),
        ("The answer is 5?", "5"),
        (r"\boxed{5}. Hmm, not sure.", "5"),
        (r"\boxed{5} Wait, that's wrong.", "5"),
        # issue 30 r3: after the answer's sentence only closing words are read ("actually",
        # "no" are none), so these are refused though they keep the answer
        (r"\boxed{5}. This is actually quite elegant.", "5"),
        (r"\boxed{5}. No further simplification is possible.", "5"),
    ],
)
def test_hedged_or_retracted_answers_score_zero_with_reason_hedged(completion, gold):
    v = math_check(completion, gold)
    assert (v.reward, v.reason, v.details["path"]) == (0.0, "hedged", "hedge"), v


@pytest.mark.parametrize("completion", ["The answer is $5$ or $6$", "The answer is $5$, $6$.",
                                        r"\boxed{5} or 6", "#### 5\nso 6"])
def test_a_hedge_whose_committed_value_is_wrong_scores_zero_as_wrong(completion):
    # The committed value (5) is compared as soon as it is read: a wrong one is not read on.
    v = math_check(completion, "6")
    assert (v.reward, v.reason, v.pred) == (0.0, "wrong", "5"), v
    assert (math_check(completion, "5").reward, math_check(completion, "5").reason) == (0.0, "hedged")


@pytest.mark.parametrize(
    ("completion", "gold"),
    [
        (r"\boxed{(1, 2)}", "(1,2)"),
        ("The solutions are 1, 2", "1, 2"),
        (r"\boxed{2, 1}", "1,2"),
        (r"\boxed{\{2, 1\}}", r"\{1, 2\}"),
        (r"\boxed{2, -2}", r"\pm 2"),
        ("The answer is 1,000.", "1000"),
        (r"\boxed{1,\!000}", "1000"),
        (r"\boxed{1\,000}", "1000"),
        (r"\boxed{12 \; \text{cm}}", "12"),
        ("The answer is $5$, which is prime.", "5"),
        (r"\boxed{5} (option B is incorrect)", "5"),
        # "wait" or "hmm" that goes on to keep the answer is no retraction (reasoning models)
        ("\\boxed{5}.\n\nWait, let me verify this. Yes, it checks out.", "5"),
        (r"The answer is $5$. Hmm, let me double-check: 2 + 3 = 5.", "5"),
        # a long check after the answer is no retraction
        (
            r"\boxed{5}. Wait, let me verify this by substituting back into the equation: "
            r"2 + 3 = 5, which matches the requirement, so the result holds.",
            "5",
        ),
    ],
)
def test_lists_thousands_separators_and_checks_are_no_hedge(completion, gold):
    v = math_check(completion, gold)
    assert (v.reward, v.reason) == (1.0, "correct"), v


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        # equal at every positive point, different at negative ones
        ("2x", "x+|x|", False),
        (r"\ln|x|", r"\ln x", False),
        (r"\ln x", r"\ln|x|", False),
        ("x", r"\sqrt{x^2}", False),
        (r"2\ln x", r"\ln(x^2)", False),
        ("x+1", r"\sqrt{x^2+2x+1}", False),
        (r"|x|+|y|", "x+y", False),
        # equal wherever both are defined; complex at x < 0 on both sides is skipped
        ("|x|", r"\sqrt{x^2}", True),
        (r"x\sqrt{x}", r"\sqrt{x^3}", True),
        (r"\frac{1}{\sqrt{x}}", r"\frac{\sqrt{x}}{x}", True),
        (r"2\ln|x|", r"\ln(x^2)", True),
        # odd roots are real roots, as in school: x^{2/3} at x = -8 is 4
        (r"x^{2/3}", r"\sqrt[3]{x^2}", True),
        (r"\sqrt[3]{x}", r"x^{1/3}", True),
        ("x+1", r"\frac{x^2-1}{x-1}", True),
        (r"|xy|", r"|x||y|", True),
    ],
)
def test_random_points_take_both_signs(gold, pred, expected):
    from verifiers.latex_equiv import symbolic_equiv

    assert symbolic_equiv(gold, pred) is expected
    assert math_reward(rf"\boxed{{{pred}}}", gold, timeout=10.0) == float(expected)


@pytest.mark.parametrize("offset", ["1", "10^{6}", "x", "\\frac{1}{2}"])
@pytest.mark.parametrize("n", [8, 51, 68])
def test_a_huge_polynomial_plus_a_small_term_is_not_the_polynomial(n, offset):
    # At rational points both sides are exact rationals: compared exactly, never to a relative
    # tolerance, under which 10^6 vanished beside a value of 10^80 (blind attacker h26).
    gold = rf"\prod_{{k=1}}^{{{n}}}(x-k)"
    assert math_check(rf"\boxed{{{gold} + {offset}}}", gold, timeout=10.0).reward == 0.0
    assert math_check(rf"\boxed{{\prod_{{k=1}}^{{{n}}}(k-x) \cdot (-1)^{{{n}}}}}", gold,
                      timeout=10.0).reward == 1.0


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        # a sum or product over a free bound is carried out exactly before it is compared
        (r"\sum_{k=1}^{n} k", r"\frac{n(n+1)}{2}", True),
        (r"\sum_{k=1}^{n} k^2", r"\frac{n(n+1)(2n+1)}{6}", True),
        (r"\prod_{k=1}^{n} k", "n!", True),
        (r"\prod_{k=1}^{n} (k+3)", r"\frac{(n+3)!}{6}", True),
        (r"\sum_{k=1}^{n} k", r"\frac{n(n+1)}{2}+1", False),
        (r"\sum_{k=1}^{n} k^{7}", r"\sum_{k=1}^{n} k^{7} + 3", False),
        (r"\prod_{k=1}^{n} (k+3)", r"\prod_{k=1}^{n} (k+3) + 2", False),
        # an infinite bound is no interval's end, and integrals and limits are carried out too
        (r"\sum_{k=1}^{\infty} \frac{1}{k^2}", r"\frac{\pi^2}{6}", True),
        (r"\sum_{k=1}^{\infty} \frac{1}{k^2}", r"\frac{\pi^2}{6}+1", False),
        (r"\int_0^{\infty} e^{-x} dx", "1", True),
        (r"\int_0^{\infty} e^{-x} dx", "2", False),
        (r"\lim_{x \to 0} \frac{\sin x}{x}", "1", True),
        (r"\lim_{x \to 0} \frac{\sin x}{x}", "0", False),
    ],
)
def test_sums_products_integrals_and_limits_compare_by_their_closed_form(gold, pred, expected):
    # Unevaluated, these ran out the deadline at the non-integer sample points: a right
    # closed form was refused with reason "timeout" (blind attacker h26).
    verdict = math_check(rf"\boxed{{{pred}}}", gold, timeout=10.0)
    assert (verdict.reward, verdict.reason) == (float(expected), "correct" if expected else "wrong")


@pytest.mark.parametrize(
    ("completion", "gold", "reward"),
    [
        (r"\boxed{101_2}", "101", 0.0),  # five, not a hundred and one
        (r"\boxed{101_{2}}", "101_2", 1.0),
        (r"\boxed{(101)_2}", "101_2", 1.0),
        (r"\boxed{101_3}", "101_2", 0.0),
        (r"\boxed{101_{10}}", "101", 1.0),
        (r"\boxed{FF_{16}}", "FF_{16}", 1.0),
        (r"\boxed{x_1}", "x_1", 1.0),
        (r"\boxed{1,2,2}", "1,2", 0.0),  # a bare list is no set: a repeated item is an extra one
        (r"\boxed{2, 1}", "1, 2", 1.0),
        (r"\boxed{\{1,2,2\}}", r"\{1,2\}", 1.0),  # as sets they are equal
    ],
)
def test_base_subscripts_and_repeated_list_items(completion, gold, reward):
    assert math_reward(completion, gold) == reward


@pytest.mark.parametrize(
    ("completion", "gold"),
    [
        (r"so the answer is $\$36$.", r"\$36"),
        (r"The final answer is $\$18.90$. I hope it is correct.", r"\$18.90"),
        (r"The answer is $\$32,\!348$.", r"\$32,\!348"),
    ],
)
def test_an_escaped_dollar_inside_math_does_not_close_it(completion, gold):
    # MATH-500 golds such as "\$36" are written inside $...$ by models that copy them.
    assert math_check(completion, gold).reward == 1.0


@pytest.mark.parametrize(
    "completion", [r"$\neq 5$", r"so x \neq 5", "so x < 5", "hence x > 5", r"x \geq 5", "x ≤ 5",
                   r"$x \approx 5$"],
)
def test_a_last_number_after_a_relation_is_not_stated_as_the_answer(completion):
    # The last-number fallback used to read "x \neq 5" as the answer 5.
    assert math_check(completion, "5").reward == 0.0


@pytest.mark.parametrize("completion", ["so x = 5", "it is 5", "so <b>5</b>", "x = $5$"])
def test_a_last_number_after_equals_or_markup_still_counts(completion):
    assert math_check(completion, "5").reward == 1.0
