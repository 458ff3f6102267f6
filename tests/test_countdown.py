"""The countdown checker: exact, safe, each number at most once."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers.countdown import (
    MAX_EXPRESSION_CHARS,
    countdown_check,
    countdown_reward,
    extract_expression,
)


@pytest.mark.parametrize(
    "completion",
    [
        "#### (3+5)*2",
        "#### (3+5)*2 = 16",
        "Let me think.\n3+5=8\n8*2=16\n#### (3 + 5) * 2",
        "<answer>(3+5)*2</answer>",
        "#### 2*(5+3)\n",
        "#### 64/(7-3)",  # exact division over fractions
        "#### (3+5)\u00d72",  # the multiplication sign
        "#### (3+5)*2 = 16.0",  # a claim written as a decimal (issue 22)
        "<answer>\\( (3+5) \\times 2 \\)</answer>",  # LaTeX inside \( \)
        "#### $(3+5) \\cdot 2$ = 16",
        "#### (3+5)\u00b72",  # the middle dot
        "#### 64 \\div (7-3)",
    ],
)
def test_correct_expressions_score_one(completion: str) -> None:
    verdict = countdown_check(completion, "16", numbers=[2, 3, 5, 7, 64])
    assert (verdict.reward, verdict.reason) == (1.0, "correct"), verdict


def test_fractions_are_exact_not_floats() -> None:
    # 1/3*3 is exactly 1 over fractions; floats give 0.9999999999999999 for some orders
    assert countdown_reward("#### 1/3*3", "1", numbers=[1, 3, 3]) == 1.0
    assert countdown_reward("#### 7/2", "3", numbers=[7, 2]) == 0.0  # 3.5 is not 3


@pytest.mark.parametrize(
    ("completion", "numbers", "reason_part"),
    [
        ("#### 3*3+7", [3, 7, 9], "number 3 used 2 times but given 1 time"),
        ("#### 4*4", [3, 7], "number 4 used 2 times but not given"),
        ("#### 3+7", [3, 7, 9], "wrong"),
        ("no answer here", [3, 7], "no_answer"),
        ("#### 16/0", [16, 0], "division by zero"),
        ("#### -3+19", [3, 19], "UnaryOp"),
        ("#### 2**4", [2, 4], "Pow"),
        ("#### 16.0", [16], "whole numbers"),
        ("#### __import__('os').system('echo pwned')", [16], "Call"),
        ("#### x", [16], "Name"),
        ("#### 16)", [16], "parse_error"),
        ("#### [16][0]", [16], "parse_error"),
        ("#### 16 if 1 else 0", [16, 1, 0], "IfExp"),
    ],
)
def test_rejections_say_why(completion: str, numbers: list[int], reason_part: str) -> None:
    verdict = countdown_check(completion, "16", numbers=numbers)
    assert verdict.reward == 0.0
    assert reason_part in verdict.reason, verdict


def test_use_all_requires_every_number() -> None:
    assert countdown_reward("#### 8*2", "16", numbers=[8, 2, 1]) == 1.0
    verdict = countdown_check("#### 8*2", "16", numbers=[8, 2, 1], use_all=True)
    assert verdict.reward == 0.0 and "[1]" in verdict.reason
    assert countdown_reward("#### 8*2*1", "16", numbers=[8, 2, 1], use_all=True) == 1.0


def test_the_last_answer_counts_whichever_form_it_takes() -> None:
    # The final-answer rule: the commitment that starts last wins (an early <answer> tag
    # used to beat a later '####' line, so a right draft outscored a wrong final answer).
    assert extract_expression("#### 1+1\n#### 8*2") == "8*2"
    assert extract_expression("<answer>8*2</answer>\n#### 1+1") == "1+1"
    assert extract_expression("#### 1+1\n<answer>8*2</answer>") == "8*2"
    assert countdown_reward("<answer>8*2</answer>\n#### 1+1", "16", numbers=[8, 2, 1]) == 0.0


def test_a_retraction_after_the_answer_scores_zero() -> None:
    for tail in ("\nNo wait, it is 8+2.", "\nOr maybe 8+2.", "\nAlternatively, 8+2.",
                 "\n" * 300 + "Actually, I made a mistake. The answer is 8+2."):
        verdict = countdown_check("#### 8*2" + tail, "16", numbers=[8, 2])
        assert (verdict.reward, verdict.reason) == (0.0, "hedged"), tail
    assert countdown_reward("#### 8*2\nDone.", "16", numbers=[8, 2]) == 1.0
    assert extract_expression("#### ") is None


def test_long_and_deeply_nested_input_is_refused_without_crashing() -> None:
    deep = "#### " + "(" * 5000 + "1" + ")" * 5000
    verdict = countdown_check(deep, "1", numbers=[1])
    assert verdict.reward == 0.0 and verdict.reason == "format"
    just_under = "#### " + "(" * 99 + "1" + ")" * 99
    assert len(just_under) - 5 < MAX_EXPRESSION_CHARS
    assert countdown_reward(just_under, "1", numbers=[1]) == 1.0


def test_bad_gold_is_the_callers_error() -> None:
    with pytest.raises(ValueError, match="answer"):
        countdown_check("#### 1", "sixteen", numbers=[1])
    with pytest.raises(ValueError, match="numbers"):
        countdown_check("#### 1", "1", numbers=[1.5])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="numbers"):
        countdown_check("#### 1", "1", numbers="12")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789+-*/() #=<>answerx.\n", max_size=80))
def test_any_text_gives_a_verdict_never_an_exception(text: str) -> None:
    verdict = countdown_check(text, "24", numbers=[1, 2, 3, 4, 6, 8])
    assert verdict.reward in (0.0, 1.0)
    assert verdict.reason


def test_agrees_with_python_arithmetic_on_random_expressions() -> None:
    # An independent oracle: build random expressions and evaluate them with Fraction by hand.
    from fractions import Fraction

    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        nums = [rng.randint(1, 20) for _ in range(4)]
        a, b, c = nums[:3]
        op1, op2 = rng.choice("+-*/"), rng.choice("+-*/")
        text = f"({a}{op1}{b}){op2}{c}"
        left = {
            "+": Fraction(a) + b,
            "-": Fraction(a) - b,
            "*": Fraction(a) * b,
            "/": Fraction(a) / b,
        }[op1]
        value = {"+": left + c, "-": left - c, "*": left * c, "/": left / c}[op2]
        if value.denominator != 1:
            continue
        checked += 1
        assert countdown_reward(f"#### {text}", str(value), numbers=nums) == 1.0, text
        assert countdown_reward(f"#### {text}", str(value + 1), numbers=nums) == 0.0, text
    assert checked > 100


def test_many_unclosed_answer_tags_are_scanned_in_linear_time() -> None:
    # A lazy <answer>(.*?)</answer> regex rescans to the end from every unclosed tag: 200 KB
    # of them took ~25 s (1 MB: minutes), stalling a whole batch on one completion.
    import time

    from verifiers.answer_text import MAX_ANGLE_BRACKETS

    text = "<answer>" * MAX_ANGLE_BRACKETS + "\n#### 8*2"
    start = time.monotonic()
    verdict = countdown_check(text, "16", numbers=[8, 2])
    assert time.monotonic() - start < 2.0
    assert (verdict.reward, verdict.reason) == (1.0, "correct")  # no closed tag: the #### line
    # one more "<" is a flood of markup (round 10), refused at one count
    assert countdown_check("<" + text, "16", numbers=[8, 2]).reason == "malformed"
    assert extract_expression("<answer>1+1<answer>8*2</answer>") == "1+1<answer>8*2"
    assert extract_expression("<answer>8*2</answer></answer>") == "8*2"


@pytest.mark.parametrize(
    ("completion", "reason"),
    [
        # Python reads everything after '#' as a comment: the hedge would go unscored.
        ("#### 8*2 #### 3*5", "malformed: '#' in the expression would hide what follows it"),
        ("#### 8*2 # or 3*5+1", "malformed: '#' in the expression would hide what follows it"),
        ("<answer>8*2 #</answer>", "malformed: '#' in the expression would hide what follows it"),
        # Text after '=' used to be dropped unread, so an alternative could hide there.
        ("#### 8*2 = 16 or 3*5+1", "malformed: only the result may follow '=', found '16 or 3*5+1'"),
        ("#### 8*2 = 16, or 3*5+1 = 16", "malformed: only the result may follow '=', found"),
        ("#### 8*2 == 16", "malformed: only the result may follow '=', found '= 16'"),
        ("#### 8*2 = 17", "wrong: claims = 17 but the expression is 16"),
        ("#### 8*2 = " + "1" * 1000, "malformed: only the result may follow '=', found"),
    ],
)
def test_hedges_and_false_claims_score_zero(completion: str, reason: str) -> None:
    verdict = countdown_check(completion, "16", numbers=[8, 2, 3, 5, 1])
    assert verdict.reward == 0.0
    assert verdict.reason.startswith(reason), verdict


def test_a_true_claim_after_the_expression_still_scores_one() -> None:
    # digits of any script read as their values (the normalising stage): "١٦" is 16
    for completion in ("#### 8*2 = 16", "#### 8*2=16", "<answer>8*2 = 16</answer>", "#### 8*2 =",
                       "#### 8*2 = \u0661\u0666", "#### \u0668*\u0662"):
        verdict = countdown_check(completion, "16", numbers=[8, 2])
        assert (verdict.reward, verdict.reason) == (1.0, "correct"), (completion, verdict)


@pytest.mark.parametrize(
    "completion",
    ["#### 20\u22124", "#### 20\u00a0-\u00a04", "#### 20\u202f-\u20034", "<answer>20\u2212 4</answer>"],
)
def test_typographic_minus_and_unicode_spaces_are_read_as_ascii(completion: str) -> None:
    # ast.parse refused them, so a correct answer typeset by the model scored 0.
    verdict = countdown_check(completion, "16", numbers=[20, 4])
    assert (verdict.reward, verdict.reason) == (1.0, "correct"), verdict


@pytest.mark.parametrize("completion", ["#### 20 \u2212\u2212 4"])
def test_doubled_minus_stays_refused(completion: str) -> None:
    verdict = countdown_check(completion, "16", numbers=[16, 20, 4])
    assert verdict.reward == 0.0 and verdict.reason.startswith("parse_error"), verdict


@pytest.mark.parametrize(
    "completion",
    ["#### (3+5)*2 = 16.5", "#### (3+5)*2 = 16.0 or 17", "#### 3 \\timesx 5", "#### \\times 16"],
)
def test_latex_and_decimal_claims_are_still_checked(completion: str) -> None:
    assert countdown_reward(completion, "16", numbers=[2, 3, 5, 16]) == 0.0


@pytest.mark.parametrize(
    "completion", ["#### １６", "#### \U0001d7cf\U0001d7d4", "#### 2\u200b0-4", "<answer>2(3+5)</answer>"]
)
def test_what_shows_is_what_is_read(completion: str) -> None:
    # issue 30: the text is read as it renders (NFKC look-alikes, invisibles removed), and a
    # product written without its sign is a product.
    verdict = countdown_check(completion, "16", numbers=[16, 20, 4, 2, 3, 5])
    assert (verdict.reward, verdict.reason) == (1.0, "correct"), verdict


@pytest.mark.parametrize(
    "completion",
    ["<answer>(3+5)*2</answer> or 15", "#### (3+5)*2\nso 17", "<answer>(3+5)*2</answer>\u6216 3*5"],
)
def test_a_value_after_the_expression_is_an_alternative(completion: str) -> None:
    verdict = countdown_check(completion, "16", numbers=[2, 3, 5])
    assert (verdict.reward, verdict.reason) == (0.0, "hedged"), verdict


@pytest.mark.parametrize("pad", [" ", "\t"])
def test_padding_then_an_alternative_inside_the_tag_is_refused(pad: str) -> None:
    # a long expression is cut before it is rewritten; the cut must never parse as the whole
    verdict = countdown_check(f"<answer>(3+5)*2{pad * 2100}or 3*5</answer>", "16", numbers=[2, 3, 5])
    assert verdict.reward == 0.0, verdict
