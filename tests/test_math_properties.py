"""Property tests: arbitrary text never raises and always returns; exact numbers round-trip."""

from __future__ import annotations

import time
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifiers.exact_numbers import format_fraction, parse_number
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check
from verifiers.math_extract import extract_answer

SLACK_S = 30.0  # per call; the symbolic deadline below is 2 s
TOKENS = [
    r"\boxed{",
    r"\fbox{",
    "{",
    "}",
    r"\{",
    r"\}",
    r"\frac",
    r"\dfrac",
    r"\sqrt",
    "^",
    "_",
    "####",
    "the answer is ",
    "Final answer: ",
    "$",
    r"\(",
    r"\)",
    r"\text{",
    r"\%",
    "%",
    r"\pi",
    r"\infty",
    r"\cup",
    "(",
    ")",
    "[",
    "]",
    ",",
    ".",
    " or ",
    "-",
    "+",
    "*",
    "/",
    "=",
    "x",
    "i",
    "e",
    "0",
    "1",
    "9",
    "10",
    "2.5",
    "1,000",
    r"\left(",
    r"\right)",
    r"\begin{pmatrix}",
    r"\end{pmatrix}",
    r"\\",
    "&",
    "!",
    "\n",
    " ",
    r"\circ",
    r"\$",
    "\u2212",
    "é",
    "\x00",
]
latexish = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
anything = st.one_of(st.text(max_size=200), latexish)
common = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@common
@given(completion=anything, answer=anything)
def test_math_check_never_raises_and_returns_in_time(completion, answer):
    start = time.monotonic()
    v = math_check(completion, answer, timeout=2.0)
    assert time.monotonic() - start < SLACK_S
    assert v.reward in (0.0, 1.0)
    assert isinstance(v.reason, str) and v.reason


@common
@given(text=anything)
def test_extract_answer_never_raises(text):
    ans = extract_answer(text)
    assert ans is None or isinstance(ans, str)


@common
@given(completion=anything, policy=st.sampled_from(["strict", "flexible"]))
def test_gsm8k_check_never_raises(completion, policy):
    v = gsm8k_check(completion, "42", policy=policy)
    assert v.reward in (0.0, 1.0)
    assert (v.reward == 1.0) == (v.pred == "42")


fractions = st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**12)


def spellings(value: Fraction) -> list[str]:
    out = [
        f"{value.numerator}/{value.denominator}",
        rf"\frac{{{value.numerator}}}{{{value.denominator}}}",
    ]
    if value.denominator == 1:
        out.append(f"{value.numerator:,}")  # thousands separators
    text = format_fraction(value)
    if "/" not in text:
        out.append(text)
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(value=fractions)
def test_exact_numbers_round_trip(value):
    for spelled in spellings(value):
        assert parse_number(spelled) == value, spelled


@settings(max_examples=150, deadline=None, derandomize=True)
@given(value=fractions, other=fractions)
def test_exact_path_is_exact(value, other):
    gold = format_fraction(value)
    for spelled in spellings(value):
        assert math_check(rf"so $\boxed{{{spelled}}}$.", gold).reward == 1.0
    expected = 1.0 if other == value else 0.0
    assert math_check(rf"\boxed{{{format_fraction(other)}}}", gold).reward == expected
