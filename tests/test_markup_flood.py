"""A flood of markup is refused at one count, not read (issue 30, round 10): more "<" than
``MAX_ANGLE_BRACKETS`` or "\\" than ``MAX_BACKSLASHES`` in a completion is no answer, and
every text reward says so with its reason. A text at the caps is read as usual."""

from __future__ import annotations

import pytest

from verifiers.answer_text import MAX_ANGLE_BRACKETS, MAX_BACKSLASHES
from verifiers.countdown import countdown_check
from verifiers.format import format_check
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check

CHECKS = {
    "math": lambda t: math_check(t, "5"),
    "gsm8k": lambda t: gsm8k_check(t, "5"),
    "countdown": lambda t: countdown_check(t, "5", numbers=[5]),
    "format": lambda t: format_check(f"<think>a</think><answer>{t}</answer>"),
}
# a right answer, then the flood in a later paragraph: the flood alone decides
FLOODS = {
    "angles": "\\boxed{5}\n\n" + "<a" * (MAX_ANGLE_BRACKETS + 1),
    "tags": "\\boxed{5}\n\n" + "<b>5</b>" * (MAX_ANGLE_BRACKETS // 2 + 1),
    "backslashes": "#### 5\n\n" + "\\" * (MAX_BACKSLASHES + 1),
    "commands": "#### 5\n\n" + "\\quad" * (MAX_BACKSLASHES + 1),
}


@pytest.mark.parametrize("check", CHECKS)
@pytest.mark.parametrize("flood", FLOODS)
def test_a_flood_of_markup_is_refused_with_its_reason(check, flood):
    verdict = CHECKS[check](FLOODS[flood])
    assert verdict.reward == 0.0
    why = verdict.reason if check == "format" else verdict.details["problem"]
    assert "markup beyond reading" in why, verdict
    assert verdict.reason.startswith("markup_flood" if check == "format" else "malformed")


@pytest.mark.parametrize("check", ["math", "gsm8k"])
def test_a_text_at_the_caps_is_read(check):
    # MAX_ANGLE_BRACKETS comparisons and MAX_BACKSLASHES commands in the working: not a flood
    working = "We check that $1 \\le 2$ and 1 < 2. " * (MAX_ANGLE_BRACKETS - 10)
    working += "\\," * (MAX_BACKSLASHES - 2 * MAX_ANGLE_BRACKETS)
    text = working + "\n\nThe answer is 5."
    assert text.count("<") <= MAX_ANGLE_BRACKETS and text.count("\\") <= MAX_BACKSLASHES
    assert CHECKS[check](text).reward == 1.0
    assert CHECKS[check](text + "<" * 11).reward == 0.0  # one over: refused
