r"""Equivalence cases from the test suites of two established graders we did not write.

Rows have the shape of ``tests/adversarial_*_cases.py``: ``(gold, completion, expected_reward,
class_name)``. The pairs and their labels are the sources' own, unchanged; only the form is
ours: the prediction is put in ``\boxed{}`` so that the comparison, not the extraction, is
measured (a prediction ending in a lone backslash gets a space before the closing brace, which
it would otherwise escape), and each symmetric pair of the second source is listed in both orders, as its test
runs it. Non-string inputs of that source (``5``, ``5.0``, ``5 / 2``) are written as the strings
Python prints for them; its ``(0, None)`` pair has no string form and is left out.

Sources (both permissive licences; the cases are test data, cited here):

- ``hendrycks``: Dan Hendrycks et al., MATH, ``modeling/math_equivalence_test.py`` of
  https://github.com/hendrycks/math (MIT licence, (c) 2021 Dan Hendrycks): the unit tests of the
  ``is_equiv`` string grader that the MATH paper reports with.
- ``nemo_skills``: NVIDIA NeMo-Skills, ``tests/test_math_equal.py`` of
  https://github.com/NVIDIA/NeMo-Skills (Apache License 2.0, (c) 2024 NVIDIA CORPORATION): the
  tests of its ``math_equal`` grader.

Some labels encode those graders' choices rather than a neutral reading (hendrycks: ``10\%`` is
``10``; NeMo-Skills: ``17\text{ any text}`` is ``17``, ``\frac{\sqrt{3}}{3} \approx 0.577`` is
``\frac{\sqrt{3}}{3}``); ``benchmarks/math_accuracy.py`` reports every disagreement.
"""

from __future__ import annotations

# (gold, prediction, equivalent)
_HENDRYCKS: list[tuple[str, str, bool]] = [
    ("\\tfrac{1}{2} + \\frac1{72}", "\\\\frac{1}{2} + 2/3", False),
    ("10, 4, -2", "4, 10, -2", False),
    ("10, 4, 2", "4, 12, 2", False),
    ("\\tfrac{1}{2} +\\! \\frac1{72}", "\\\\dfrac{1}{2} +\\frac{1}{72}", True),
    ("10\\text{ units}", "10 ", True),
    ("10\\text{ units}", "100 ", False),
    ("10", "\\$10", True),
    ("\\left(x-2\\right)\\left(x+2\\right)", "(x-2)(x+2)", True),
    ("0.1, 4, 2", "4, .1, 2", False),
    ("0.1", ".1", True),
    ("10\\%", "10", True),
    ("10\\sqrt{3} + \\sqrt4", "10\\sqrt3 + \\sqrt{4}", True),
    ("\\frac34i", "\\frac{3}{4}i", True),
    ("\\tfrac83", "\\frac{8}{3}", True),
    ("5x - 7y + 11z + 4 = 0", "x + y - z + 2 = 0", False),
    ("1/2", "\\frac{1}{2}", True),
]

# Symmetric: the source asserts math_equal(a, b) and math_equal(b, a).
_NEMO_SKILLS: list[tuple[str, str, bool]] = [
    ("5", "5", True),
    ("5", "5.0", True),
    ("1/2", "0.5", True),
    ("\\frac{1}{2}", "0.5", True),
    ("918\\frac{1}{2}", "918.5", True),
    ("x^2+2x+1", "x^2 + 2*x + 1", True),
    ("x^2+2x+1", "x^2 + 2*x - (-1)", True),
    ("y = x^2+2x+1", "2x+ 1+x^2", True),
    ("odd", "\\text{odd}", True),
    ("E", "\\mathrm{E}", True),
    ("A", "\\textbf{A}", True),
    ("f'", "f'", True),
    ("185", "185\\", True),
    ("185\\", "185\\", True),
    (".185", "0.185", True),
    ("\\frac {1}{2}", "0.5", True),
    ("17\\text{ any text}", "17", True),
    ("\\$10", "10", True),
    ("10%", "10", True),
    ("10\\%", "10", True),
    ("2.5", "\\frac{5}{2}", True),
    ("\\frac{1}{3}", "\\dfrac{1}{3}", True),
    ("(r+5)(r+5)", "(r+5)^2", True),
    ("\\frac{\\sqrt{3}}{3}", "\\frac{\\sqrt{3}}{3} \\approx 0.577", True),
    ("C", "C. x = 42", True),
    (
        "\\begin{pmatrix}0&0&0\\\\0&1&0\\\\0&0&1\\end{pmatrix}",
        "\\begin{bmatrix} 0 & 0 & 0 \\\\ 0 & 1 & 0 \\\\ 0 & 0 & 1 \\end{bmatrix}",
        True,
    ),
    ("5", "5.001", False),
    ("x^2+2x+1", "x^3+2x+1", False),
    ("odd", "\\text{oddd}", False),
    ("E", "\\mathrm{E}*2", False),
    ("\\sqrt{67},-\\sqrt{85}", "\\sqrt{67}", False),
]


def _row(gold: str, pred: str, equivalent: bool, source: str) -> tuple[str, str, float, str]:
    # A prediction ending in a lone backslash ("185\\") would escape the box's closing brace
    # ("\\boxed{185\\}" never closes): a space after it keeps the box a box, for both graders.
    if (len(pred) - len(pred.rstrip("\\"))) % 2:
        pred += " "
    return gold, f"$\\boxed{{{pred}}}$", 1.0 if equivalent else 0.0, source


CASES: list[tuple[str, str, float, str]] = [
    *(_row(g, p, e, "hendrycks") for g, p, e in _HENDRYCKS),
    *(_row(a, b, e, "nemo_skills") for a, b, e in _NEMO_SKILLS),
    *(_row(b, a, e, "nemo_skills") for a, b, e in _NEMO_SKILLS if a != b),
]
