"""The final-answer rule under attack (issue 22): the labelled cases of
``tests/adversarial_extract_cases.py``, and a time bound on 1 MB pathological completions."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adversarial_extract_cases import CASES, GSM8K_CASES  # noqa: E402

from verifiers.countdown import countdown_check  # noqa: E402
from verifiers.format import format_check  # noqa: E402
from verifiers.gsm8k import gsm8k_check  # noqa: E402
from verifiers.math import math_check  # noqa: E402
from verifiers.math_extract import final_answer  # noqa: E402


def test_the_suite_is_large_and_labelled_both_ways():
    assert len(CASES) + len(GSM8K_CASES) >= 120
    for cases in (CASES, GSM8K_CASES):
        labels = Counter(reward for _, _, reward, _ in cases)
        assert labels[0.0] >= 15 and labels[1.0] >= 15, labels
        assert all(isinstance(c, str) and c for _, _, _, c in cases)


@pytest.mark.parametrize(
    ("gold", "completion", "expected", "kind"),
    CASES,
    ids=[f"{c[3]}-{i}" for i, c in enumerate(CASES)],
)
def test_math_case(gold, completion, expected, kind):
    v = math_check(completion, gold, timeout=10.0)
    assert v.reward == expected, (kind, v)
    if expected == 0.0:
        assert v.reason != "correct" and v.reason, v


@pytest.mark.parametrize(
    ("gold", "completion", "expected", "kind"),
    GSM8K_CASES,
    ids=[f"{c[3]}-{i}" for i, c in enumerate(GSM8K_CASES)],
)
def test_gsm8k_case(gold, completion, expected, kind):
    v = gsm8k_check(completion, gold)
    assert v.reward == expected, (kind, v)


def test_refusals_name_their_reason():
    cases = {
        r"\boxed{\boxed{5} \text{ or } 6}": ("hedged", "box inside"),
        "#### 18" + " " * 500 + "or 19": ("malformed", "longer than 400"),
        "#### ~18": ("hedged", "approximate"),
        r"\boxed{5} and later \boxed{6": ("malformed", "never closed"),
        r"\boxed{5}" + "z " * 30_000: ("malformed", "after the final answer"),
        "AZYUK2A": ("malformed", "part of a word"),
    }
    for text, (reason, words) in cases.items():
        found = final_answer(text)
        assert found.problem is not None and found.problem[0] == reason, (text[:40], found)
        assert words in found.problem[1], found.problem


MB = 1_000_000
PATHOLOGICAL = {
    "open-boxes": r"\boxed{" * (MB // 7),
    "closed-boxes": r"\boxed{5}" * (MB // 9),
    "nested-boxes": r"\boxed{" * 5_000 + "5" + "}" * 5_000 + " " * (MB - 45_001),
    "dollars": "$" * MB,
    "dollar-pairs": "$5$ " * (MB // 4),
    "hashes": "#### " * (MB // 5),
    "hash-lines": "#### 5\n" * (MB // 7),
    "digits": "9" * MB,
    "digit-runs": ("1" * 500 + " ") * (MB // 501),
    "answer-is": "the answer is " * (MB // 14),
    "checked-answers": "check our answer: " * (MB // 18),
    "braces": "{" * MB,
    "closing-braces": "}" * MB + r"\boxed{5}",
    "letters": "a" * MB + "5",
    "commas": "1," * (MB // 2),
    "or-list": "5 or " * (MB // 5) + "6",
    "spans": "\\(" * (MB // 2),
    "retraction-words": r"\boxed{5}" + " wait no" * 6_000,
    "padding-before": " " * MB + r"\boxed{5}",
    # unknown commands opening groups that never close (h24: 24 KB took 7 s, quadratic)
    "unclosed-commands": "\\x{" * (MB // 3) + r"\boxed{5}",
    "padding-after": r"\boxed{5}" + " " * MB,
    "invisible": "\u200b" * MB + r"\boxed{5}",
    "markup": "<b>" * (MB // 3) + "#### 5",
    # issue 30: markers that are no boxes (a rescan per marker took 54 s), hash runs, and
    # every hiding and normalising form of the reading pass
    "boxed-words": "\\boxeda" * (MB // 7),
    "hash-run": "#" * MB,
    "iffalse": "\\iffalse" * (MB // 8),
    "html-comments": "<!--" * (MB // 4),
    "hidden-spans": "<span style='display:none'>" * (MB // 28),
    "white": "{\\color{white}" * (MB // 14),
    "phantoms": "\\phantom{" * (MB // 9),
    "cjk-or": "\u6216" * MB,
    "braille-blank": "\u2800" * MB,
    "minus-signs": "\u2212" * MB,
    "answer-tags": "<answer>" * (MB // 8),
    "text-wrappers": "\\text{or}" * (MB // 9),
    "tail-values": r"\boxed{5}" + " 5" * (MB // 2 - 10),
    "paragraph-boxes": ("\\boxed{5} " * 50 + "\n\n") * (MB // 510),
    "answer-clauses": "answer is " * (MB // 10),  # each earlier clause read in a bounded window
}
# The bar is 0.5 s per 1 MB call on an idle machine; this suite runs on shared CPUs, so it
# allows 3x that. A super-linear scan takes minutes on these inputs, far beyond either.
LIMIT_S = 1.5


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_one_megabyte_is_judged_in_bounded_time(name):
    text = PATHOLOGICAL[name]
    calls = {
        "math": lambda: math_check(text, "5"),
        "gsm8k": lambda: gsm8k_check(text, "5"),
        "gsm8k-strict": lambda: gsm8k_check(text, "5", policy="strict"),
        "format": lambda: format_check(f"<think>a</think><answer>{text}</answer>"),
        "countdown": lambda: countdown_check(text, "5", numbers=[5]),
    }
    for family, call in calls.items():
        best = float("inf")
        for _ in range(2):  # a second try only when the first was slow (a busy machine)
            start = time.perf_counter()
            verdict = call()
            best = min(best, time.perf_counter() - start)
            if best < LIMIT_S:
                break
        assert verdict.reward in (0.0, 1.0), (family, verdict)
        assert best < LIMIT_S, (family, name, best)


# A completion is right for at most one of two different golds: one that scores 1.0 for both 5
# and 6 offers both (a hedge that got through). Built from the tokens a hedging policy uses.
HEDGE_TOKENS = ["\\boxed{", "}", "{", "$", "\\(", "\\)", "####", "\n", " ", "5", "6", ",", ".",
                "or", "and", "not", "answer is", "Answer:", "(", ")", "<b>", "</b>", "\u200b",
                "=", "x", "**", "\\text{", "but", "Actually", "it is", "\\fbox{", ";", "-", "/",
                "nor", "~", "about", "?", "No wait"]  # fmt: skip


@settings(max_examples=600, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(HEDGE_TOKENS), min_size=2, max_size=25))
def test_no_completion_is_right_for_two_golds_gsm8k(tokens):
    text = "".join(tokens)
    assert not (gsm8k_check(text, "5").reward == 1.0 and gsm8k_check(text, "6").reward == 1.0)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(HEDGE_TOKENS), min_size=2, max_size=25))
def test_no_completion_is_right_for_two_golds_math(tokens):
    text = "".join(tokens)
    right = [math_check(text, gold, timeout=2.0).reward == 1.0 for gold in ("5", "6")]
    assert not all(right), text


@pytest.mark.parametrize("unit", ["\u0301", "\u0323", "x\u0301", "It's x\u0301"])
def test_a_word_of_combining_marks_is_read_in_linear_time(unit):
    """A run of letters and combining marks with no space (h25: 16 KB took 8.8 s, 8 KB of
    U+0323 44 s) is one word to the sentence readers: 16 KB of it must not cost a second."""
    text = unit * (16_000 // len(unit)) + r"\boxed{5}"
    for call in (lambda: math_check(text, "5"), lambda: gsm8k_check(text, "5"),
                 lambda: countdown_check(text.replace(r"\boxed{5}", "<answer>5</answer>"), "5", numbers=[5])):
        start = time.perf_counter()
        verdict = call()
        assert verdict.reward in (0.0, 1.0)
        assert time.perf_counter() - start < LIMIT_S, unit
