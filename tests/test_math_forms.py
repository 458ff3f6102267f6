r"""The answer forms the comparison reads before any parser (verifiers/math_forms.py), and the
printed-decimal and repeating-decimal rules (verifiers/exact_numbers.py)."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from verifiers.exact_numbers import parse_number
from verifiers.math_forms import (
    as_solution_list,
    choice_letter,
    digits_apart,
    drop_assignment,
    latex_from_unicode,
    words_key,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C", ("C", False)),
        ("(C)", ("C", True)),
        (r"\text{(C)}", ("C", True)),
        (r"\textbf{(C)}", ("C", True)),
        (r"\text{ (c) }", ("C", True)),
        (r"\text{E}", ("E", True)),
        ("C^1", None),
        ("c", None),
        ("2C", None),
        (r"\text{(C) or (D)}", None),
        ("(CD)", None),
    ],
)
def test_choice_letter(text, expected):
    assert choice_letter(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"x = 10,\!080", r"10,\!080"),
        ("(x, y) = (-1, 3)", "(-1, 3)"),
        (r"a_1 = 5", "5"),
        (r"\theta = \frac{\pi}{2}", r"\frac{\pi}{2}"),
        ("x + y = 3", "x + y = 3"),  # not one variable
        ("x = 3 = 4", "x = 3 = 4"),  # two equals signs
        (r"x \geq 5", r"x \geq 5"),
        ("5 = x", "5 = x"),
        ("x =", "x ="),
    ],
)
def test_drop_assignment(text, expected):
    assert drop_assignment(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"x=1 \text{ or } x=-2", "1, -2"),
        (r"x = 1 \text{ and } x = -2", "1, -2"),
        ("x = 1 or x = -2", "1, -2"),
        ("x = 3, x = -3", "3, -3"),
        (r"1 \text{ or } -2", "1, -2"),
        (r"x = 1 \text{ or } y = 2", None),  # two variables: no solution set of one
        (r"x = 1 \text{ or }", None),
        ("x = 1 = 2 or x = 3", None),
        ("1, 2", None),  # nothing to rewrite
    ],
)
def test_as_solution_list(text, expected):
    assert as_solution_list(text) == expected


@pytest.mark.parametrize(
    ("text", "apart"),
    [
        (r"2\quad 5", True),
        (r"2\qquad5", True),
        ("12 34", True),
        (r"2~5", True),
        (r"1\,000", False),
        (r"10,\!080", False),
        (r"1{,}000{,}000", False),
        ("1 000", False),
        (r"1\,0000", True),
        (r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", False),
        (r"2 \sqrt{2}", False),
    ],
)
def test_digits_apart(text, apart):
    assert (digits_apart(text) is not None) == apart


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (r"\text{Monday}", "monday"),
        ("monday", "monday"),
        (r"\text{even}", "even"),
        ("ABC", None),
        ("x", None),
        ("xy", None),
        (r"\Pi", None),
    ],
)
def test_words_key(text, key):
    assert words_key(text) == key


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("2√2", r"2\sqrt{2}"),
        ("√(x+1)", r"\sqrt{x+1}"),
        ("∛5", r"\sqrt[3]{5}"),
        ("½", r"\frac{1}{2}"),
        ("3½", r"3\frac{1}{2}"),
        ("x²", "x^{2}"),
        ("−5", "-5"),
        ("plain", "plain"),
    ],
)
def test_latex_from_unicode(text, latex):
    assert latex_from_unicode(text) == latex


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (r"0.\overline{3}", Fraction(1, 3)),
        (r"0.1\overline{6}", Fraction(1, 6)),
        (r"2.\overline{45}", Fraction(27, 11)),
        (r"-0.\overline{142857}", Fraction(-1, 7)),
        (r"0.\bar{3}", Fraction(1, 3)),
        (r"0.\overline{9}", Fraction(1)),
    ],
)
def test_repeating_decimals(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "1" + " " * 100_000 + "x",
        "√ " * 50_000,
        "x = " * 50_000,
        "1 or " * 50_000,
        r"\text{" * 50_000,
    ],
)
def test_forms_are_linear_on_long_inputs(text):
    start = time.perf_counter()
    for fn in (as_solution_list, choice_letter, digits_apart, drop_assignment, words_key):
        fn(text)
    latex_from_unicode(text)
    assert time.perf_counter() - start < 1.0
