"""The closing allow-list after the final answer (issue 30 round 3, ``verifiers.answer_closing``):
the blind attack's revisions, retractions and numerals after a correct answer score 0, and the
closings a solution ends with score 1. The generated properties are in
``tests/test_reward_properties.py`` (``h15_*``)."""

from __future__ import annotations

import pytest

from verifiers.answer_closing import CLOSING_WORDS, unread_closing
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check

# A correct answer (gold 5 unless said), then something that revises, retracts or hedges it
# without a digit: each was paid 1.0 before the allow-list.
REVISED = [
    "\\boxed{5}\n\nActually double that.", "#### 5\n\nActually one more.", "\\boxed{5}\n\nhalf that",
    "\\boxed{5}\n\nthe opposite.", "\\boxed{5}\n\nits negative", "\\boxed{5}\n\nthe reciprocal",
    "\\boxed{5}\n\none less", "\\boxed{5}\n\na couple more", "\\boxed{5}\n\nEigentlich das Doppelte.",
    "\\boxed{5}\n\nEn fait, le double.", "\\boxed{5}\n\nВообще-то вдвое больше.",
    "\\boxed{5} Actually \U0001f51f", "\\boxed{5}\n\nWait, it is sechs.", "#### 5\n\nActually: cero.",
    "\\boxed{5}\n\nActually a dozen.", "\\boxed{5}\n\n사실 여섯.", "\\boxed{5}\n\nAslında altı.",
    "\\boxed{5}\n\nEigenlijk zes.", "\\boxed{5}\n\nWłaściwie sześć.", "\\boxed{5}\n\n其实是十二",
    "\\boxed{5}, i.e. VII", "\\boxed{5}\n\nActually \u2077.", "\\boxed{5}\n\nNo.",
    "#### 5\n\nJust kidding.", "\\boxed{5}\n\nFalsch.", "\\boxed{5}\n\nНеверно.",
    "\\boxed{5}\n\nI doubt it.", "\\boxed{5}\n\nNot quite.", "#### 5 (guess)",
    "\\boxed{5 \\text{ (guess)}}", "\\boxed{5}\n\nIs that right?", "\\boxed{5}\n\nWait.",
    "\\boxed{5} Actually double that.", "\\boxed{5} the opposite", "#### 5 Actually one more.",
    "\\boxed{5} apples, but double that",
]


@pytest.mark.parametrize("completion", REVISED)
def test_a_revision_after_the_answer_is_refused(completion: str) -> None:
    for check in (math_check, gsm8k_check):
        v = check(completion, "5")
        assert v.reward == 0.0, (check.__name__, v)


def test_a_superscript_after_a_gsm8k_line_is_refused() -> None:
    assert gsm8k_check("#### 260\n / \u00b2\u2075\u2079", "260").reward == 0.0
    v = math_check("\\boxed{5}\n\nActually double that.", "5")
    assert (v.reason, v.details["problem"].startswith("unread_tail")) == ("hedged", True)


KEPT = [
    ("#### 57 \u220e", "57"), ("**Answer: 57** \u220e", "57"), ("Answer: 57 $\\blacksquare$", "57"),
    ("#### 57 Check: 50 + 7 = 57", "57"), ("#### 57 That is our answer.", "57"),
    ("The answer is 57 people.", "57"), ("答案是 $\\boxed{57}$。.", "57"),
    ("\\boxed{5}\n\nWait, is that right? Yes: 2 + 3 = 5.", "5"), ("\\boxed{5} dozen eggs", "5"),
    ("\\boxed{5}\n\nI hope this helps!", "5"), ("\\boxed{5}\n\nThis is the final answer.", "5"),
    ("\\boxed{5}\n\nTherefore the answer above is correct.", "5"),
    ("\\boxed{5}\n\nLet me know if you have questions.", "5"),
    ("Final Answer: The final answer is $5$. I hope it is correct.", "5"),
    ("\\boxed{5} apples", "5"), ("#### 18 total", "18"), ("\\boxed{5} in total.", "5"),
    ("\\boxed{5}\n\nDas ist die Antwort.", "5"), ("\\boxed{5}\n\n所以答案是5。", "5"),
    # an answer tag around the box closes it (refused before round 6, a census find)
    ("<answer>\\boxed{5}</answer>", "5"), ("Thus <answer>$\\boxed{5}$</answer>.", "5"),
]


@pytest.mark.parametrize(("completion", "gold"), KEPT)
def test_closing_prose_keeps_the_answer(completion: str, gold: str) -> None:
    v = math_check(completion, gold)
    assert v.reward == 1.0, v
    if "####" in completion:
        assert gsm8k_check(completion, gold).reward == 1.0


def test_negators_and_number_words_are_no_closing_words() -> None:
    for word in ("not", "no", "never", "one", "two", "dozen", "double", "half", "actually", "if"):
        assert word not in CLOSING_WORDS
        assert unread_closing(f"This is {word} the answer.") is not None
    assert unread_closing("It isn't right.") == "isn't"


def test_digits_and_arithmetic_only_where_the_caller_read_the_values() -> None:
    assert unread_closing("Check: 2 + 3 = 5.") == "2"
    assert unread_closing("Check: 2 + 3 = 5.", math=True) is None
    assert unread_closing("Check: 2 + 3 = 5 \\ne 6.", math=True) == "\\ne"
