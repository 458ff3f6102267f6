"""Property tests of the text rewards, written from the public API and the invariants only.

An RL policy searches the whole space of completions for anything that pays 1.0 without
being right, so the generators compose completions from grammars (commitment form x joiner x
alternative value x hidden wrapper x position x number format) and assert:

- soundness: a completion that offers a value other than the gold (two values, a hedge, a
  negation, a comparison, a value hidden in markup that does not render) is never paid 1.0;
- completeness: the gold in an ordinary, unambiguous dressing is paid 1.0;
- bounded time: any input up to 1 MB returns in well under a second and never raises.

Forms that are genuinely ambiguous (``The answer is 5, not 6.``) appear only in the
soundness direction, never as a completeness requirement.

Profiles: the default is derandomised and sized for CI (the whole file in about a minute);
``RLVR_HYPOTHESIS_PROFILE=long`` multiplies every example count (run by hand, optionally with
``--hypothesis-seed=N`` to vary the search). ``RLVR_HYPOTHESIS_SCALE`` overrides the factor.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from verifiers.countdown import countdown_check
from verifiers.format import format_check
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check
from verifiers.types import Verdict

# ---------------------------------------------------------------------------------------
# Profiles
# ---------------------------------------------------------------------------------------

_LONG = os.environ.get("RLVR_HYPOTHESIS_PROFILE", "ci") == "long"
_SCALE = float(os.environ.get("RLVR_HYPOTHESIS_SCALE", "40" if _LONG else "1"))


def _profile(n: int) -> settings:
    """CI: derandomised, ``n`` examples. Long: ``n * scale`` examples, seeded by pytest's
    ``--hypothesis-seed`` (random otherwise)."""
    return settings(
        max_examples=max(1, int(n * _SCALE)),
        derandomize=not _LONG,
        deadline=None,  # time is asserted by the timing tests, not per example
        database=None,  # the CI run must not depend on earlier runs
        print_blob=True,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],  # no 'explain': slow here
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much],
    )


# ---------------------------------------------------------------------------------------
# Grammar pieces (plain data, so a census script can enumerate them too)
# ---------------------------------------------------------------------------------------

# Commitment forms: how a completion states "this is my answer". ``{}`` is the value.
MATH_COMMITS: dict[str, str] = {
    "boxed": r"\boxed{{{}}}",
    "boxed_dollar": r"$\boxed{{{}}}$",
    "fbox": r"\fbox{{{}}}",
    "hashes": "#### {}",
    "answer_tag": "<answer>{}</answer>",
    "the_answer_is": "The answer is {}",
    "the_answer_is_math": "The final answer is ${}$",
    "final_answer": "Final answer: {}",
    "final_answer_bold": "**Final Answer:** {}",
    "equals": "x = {}",
    "equals_math": "$x = {}$",
    "last_line": "So we get\n{}",
}
GSM8K_COMMITS: dict[str, str] = {
    "hashes": "#### {}",
    "boxed": r"\boxed{{{}}}",
    "the_answer_is": "The answer is {}",
    "final_answer": "Final answer: {}",
    "answer_tag": "<answer>{}</answer>",
    "equals": "In total: 3 + 4 = {}",
    "last_line": "So we get\n{}",
}

# Words for "or" in many scripts: a policy can hedge in any language.
OR_WORDS = ["或", "或者", "还是", "또는", "아니면", "أو", "या", "अथवा", "ή", "или", "либо",
            "หรือ", "または", "o", "ou", "oder", "of", "veya", "hoặc", "atau", "lub", "או"]
# Arbitrary words in many scripts (no digits): after a final answer, a second bare number
# separated only by words is still a second value on offer.
SCRIPT_WORDS = ["答案", "可能", "也许", "정답", "아마", "الجواب", "ربما", "उत्तर", "शायद",
                "απάντηση", "ίσως", "ответ", "может", "คำตอบ", "อาจจะ", "答え", "たぶん",
                "Antwort", "vielleicht", "respuesta", "quizás", "תשובה", "cevap"]
JOINERS_PLAIN = [" or ", " and ", " not ", " than ", " to ", " ± ", " +/- ", "/", ", ", "; ",
                 " | ", "\n", "\n\n", " — ", " – ", " (", " [", " vs ", " instead of ",
                 " rather than ", ", or maybe ", " (also ", " & ", ". ", "? ", "! ", ": ",
                 " = ", " ", "\t", ", but also ", " alternatively ", " either way ",
                 "...", " \u2192 ", " ⇒ ", " ~ ", " ≈ ", " ≠ "]
JOINERS_MARKUP = ["<br>", "</b> <b>", " <i>", "</p><p>", " **", "\n- ", "\n1. ", "\n> ",
                  " `", "</answer> <answer>", " <sup>", " <sub>", "<span>"]
JOINERS_LATEX = [r" \quad ", r" \qquad ", r"\ ", r"\,", r"\;", r"\!", "~", r" \text{ or } ",
                 r" \text{ 或 } ", r" \mbox{ or } ", r" \textrm{ and } ", r" \text{} ",
                 r" \lor ", r" \vee ", r" \pm ", r" \mp ", r" \hspace{1em} ", r" \\ ",
                 r" \mathrm{or} ", r" \operatorname{or} ", r" \textbf{or} ", " , ", r" \, , \, "]
JOINERS: list[str] = (JOINERS_PLAIN + JOINERS_MARKUP + JOINERS_LATEX
                      + [f" {w} " for w in OR_WORDS] + [f" {w} " for w in SCRIPT_WORDS])

# Wrappers whose content a reader never sees; {} is the hidden text.
HIDERS: dict[str, str] = {
    "iffalse": "\\iffalse {} \\fi",
    "comment_env": "\\begin{{comment}}{}\\end{{comment}}",
    "tex_percent": "% {}\n",
    "html_comment": "<!-- {} -->",
    "display_none": '<span style="display:none">{}</span>',
    "hidden_attr": "<div hidden>{}</div>",
    "md_comment": "\n[//]: # ({})\n",
    "white_textcolor": "\\textcolor{{white}}{{{}}}",
    "white_color": "{{\\color{{white}} {}}}",
    "white_html": '<font color="white">{}</font>',
    "phantom": "\\phantom{{{}}}",
    "hphantom": "\\hphantom{{{}}}",
    "vphantom": "\\vphantom{{{}}}",
    "zero_size": '<span style="font-size:0">{}</span>',
}

NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
                "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
CJK_DIGITS = "〇一二三四五六七八九十"
# Decimal digit sets of other scripts (all Unicode category Nd).
DIGIT_SETS = ["０１２３４５６７８９", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९",
              "๐๑๒๓๔๕๖๗๘๙", "০১২৩৪৫৬৭৮৯", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"]

# Forms that negate or bound the gold instead of committing to it; {g} is the gold.
NEGATIONS = [
    "The answer is not {g}.", "It is not {g}.", "The answer isn't {g}.",
    "The answer cannot be {g}.", "It is anything but {g}.", "The answer is other than {g}.",
    "The answer is greater than {g}.", "The answer is more than {g}.",
    "The answer is less than {g}.", "The answer is at least {g}.",
    "The answer is at most {g}.", "The answer is bigger than {g}.",
    "The answer is fewer than {g}.", "The answer is not equal to {g}.",
    r"\boxed{{> {g}}}", r"\boxed{{< {g}}}", r"\boxed{{\neq {g}}}", r"\boxed{{\ne {g}}}",
    r"\boxed{{\geq {g}}}", r"\boxed{{\leq {g}}}", r"\boxed{{\ge {g}}}", r"\boxed{{\gt {g}}}",
    r"\boxed{{x > {g}}}", r"\boxed{{x \neq {g}}}", r"$x \neq {g}$", r"$x > {g}$",
    "x ≠ {g}", "x > {g}", "x ≥ {g}", "x < {g}", "#### not {g}", "#### >{g}", "#### ≠ {g}",
    r"\boxed{{\text{not }{g}}}", r"\boxed{{\lnot {g}}}", "Final answer: not {g}",
    "Final answer: more than {g}", "<answer>not {g}</answer>", "<answer>> {g}</answer>",
]
# The alternative ``a`` stated as the answer, with the gold ``g`` only rejected.
NEGATED_GOLD = [
    "It is {a}, not {g}.", "The answer is {a}, not {g}.", "The answer is {a} and not {g}.",
    r"\boxed{{{a}}}, not {g}.", "#### {a} (not {g})", "Final answer: {a}, not {g}",
    "The answer is {a} rather than {g}.", "The answer is {a} instead of {g}.",
    "Not {g} but {a}.", "The answer is {a}; {g} is wrong.", r"\boxed{{{a} \text{, not } {g}}}",
]

# Prose with no numbers that may follow a final answer.
TRAILING_PROSE = ["", ".", " .", "!", "\nHope this helps!", "\nThis completes the solution.",
                  " I hope that is clear.", "\n\nLet me know if anything is unclear.",
                  "\n", "  \n\n"]
# Reasoning before the commitment; numbers here are work, not answers.
REASONING = ["", "Let me think step by step.\n", "First, 12 * 3 = 36. Then 36 - 7 = 29.\n",
             "We have 4 apples and 9 pears, so there are 13 fruits.\n",
             "Half of 48 is 24, and 24 + 48 = 72.\n\n"]


# ---------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rendered:
    """A value and one way of writing it."""

    value: Fraction
    text: str
    kind: str


def _plain(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    s = _decimal(v)
    return s if s is not None else f"{v.numerator}/{v.denominator}"


def _decimal(v: Fraction) -> str | None:
    """Finite decimal of ``v`` or None."""
    d, twos, fives = v.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d != 1:
        return None
    places = max(twos, fives)
    digits = str(abs(v.numerator) * 10**places // v.denominator).rjust(places + 1, "0")
    whole, frac = digits[: len(digits) - places], digits[len(digits) - places:]
    return ("-" if v < 0 else "") + (f"{whole}.{frac}" if frac else whole)


def _latex(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    sign = "-" if v < 0 else ""
    return rf"{sign}\frac{{{abs(v.numerator)}}}{{{v.denominator}}}"


def renderings(v: Fraction) -> list[Rendered]:
    """Ways a completion may write the value ``v`` (offered, so they count as values)."""
    out = [Rendered(v, _plain(v), "digits"), Rendered(v, _latex(v), "latex")]
    if v.denominator == 1:
        n = v.numerator
        out.append(Rendered(v, rf"\frac{{{2 * n}}}{{2}}", "latex_frac"))
        out.append(Rendered(v, f"{n}.0", "decimal_zero"))
        out.append(Rendered(v, rf"\mathbf{{{n}}}", "latex_bold"))
        out.append(Rendered(v, rf"\text{{{n}}}", "latex_text"))
        out.append(Rendered(v, f"{{{n}}}", "braced"))
        if n < 0:
            out.append(Rendered(v, f"\u2212{-n}", "unicode_minus"))
        else:
            out.append(Rendered(v, f"+{n}", "plus_sign"))
        if 0 <= n <= 20:
            out.append(Rendered(v, NUMBER_WORDS[n], "word"))
            out.append(Rendered(v, NUMBER_WORDS[n].capitalize(), "word_cap"))
        if 0 <= n <= 10:
            out.append(Rendered(v, CJK_DIGITS[n], "cjk"))
        if n >= 0:
            for ds in DIGIT_SETS:
                out.append(Rendered(v, "".join(ds[int(c)] for c in str(n)), "script_digits"))
        if abs(n) >= 1000:
            out.append(Rendered(v, f"{n:,}", "thousands"))
            out.append(Rendered(v, f"{n:,}".replace(",", "{,}"), "latex_thousands"))
    else:
        dec = _decimal(v)
        if dec is not None:
            out.append(Rendered(v, dec, "decimal"))
        out.append(Rendered(v, rf"\dfrac{{{v.numerator}}}{{{v.denominator}}}", "dfrac"))
    return out


golds_int = st.one_of(st.integers(0, 30), st.integers(-60, 2000), st.integers(1000, 10**7))
golds_frac = st.builds(Fraction, st.integers(-40, 40), st.integers(2, 12)).filter(
    lambda f: f.denominator != 1)
golds_math = st.one_of(golds_int.map(Fraction), golds_frac)


def alternatives(gold: Fraction) -> st.SearchStrategy[Rendered]:
    """A rendering of a value different from ``gold`` (near misses first)."""
    near = [gold + 1, gold - 1, -gold, gold * 10, gold + Fraction(1, 2), gold * 2 + 1,
            gold / 10 if gold else Fraction(7)]
    values = st.one_of(st.sampled_from(near), st.integers(-30, 30).map(Fraction),
                       st.integers(1000, 10**6).map(Fraction))
    return (values.filter(lambda v: v != gold)
            .flatmap(lambda v: st.sampled_from(renderings(v))))


# ---------------------------------------------------------------------------------------
# Assertions
# ---------------------------------------------------------------------------------------

def _v(fn: Callable[..., Verdict], completion: str, *args: object, **kw: object) -> Verdict:
    v = fn(completion, *args, **kw)
    assert isinstance(v, Verdict)
    assert v.reward is None or 0.0 <= v.reward <= 1.0
    return v


def assert_not_paid(fn: Callable[..., Verdict], completion: str, gold: str,
                    **kw: object) -> None:
    v = _v(fn, completion, gold, **kw)
    assert v.reward != 1.0, (f"paid 1.0 for a completion that offers a value != gold\n"
                             f"completion={completion!r}\ngold={gold!r}\n{v}")


def assert_paid(fn: Callable[..., Verdict], completion: str, gold: str, **kw: object) -> None:
    v = _v(fn, completion, gold, **kw)
    assert v.reward == 1.0, (f"refused a correct answer in an ordinary dressing\n"
                             f"completion={completion!r}\ngold={gold!r}\n{v}")


# ---------------------------------------------------------------------------------------
# Soundness compositions
# ---------------------------------------------------------------------------------------

def _commit(form: str, text: str) -> str:
    return form.format(text)


@st.composite
def two_values(draw: st.DrawFn, commits: dict[str, str], golds: st.SearchStrategy[Fraction],
               position: str) -> tuple[str, str]:
    """A completion offering the gold and a different value; returns (completion, gold)."""
    gold = draw(golds)
    g = draw(st.sampled_from([r for r in renderings(gold) if r.kind in
                              ("digits", "latex", "latex_thousands", "thousands")]))
    a = draw(alternatives(gold))
    form = commits[draw(st.sampled_from(sorted(commits)))]
    j = draw(st.sampled_from(JOINERS))
    pre = draw(st.sampled_from(REASONING))
    post = draw(st.sampled_from(TRAILING_PROSE))
    if position == "inside_after":  # the commitment itself holds both: \boxed{5 or 6}
        body = _commit(form, g.text + j + a.text)
    elif position == "inside_before":  # \boxed{6 or 5}
        body = _commit(form, a.text + j + g.text)
    elif position == "after":  # \boxed{5} or 6
        body = _commit(form, g.text) + j + a.text
    elif position == "after_commit":  # \boxed{5} or \boxed{6}
        form2 = commits[draw(st.sampled_from(sorted(commits)))]
        body = _commit(form, g.text) + j + _commit(form2, a.text)
    elif position == "around":  # 6 or \boxed{5} or 6
        body = a.text + j + _commit(form, g.text) + j + a.text
    else:
        raise AssertionError(position)
    return pre + body + post, _plain(gold) if draw(st.booleans()) else _latex(gold)


@st.composite
def hidden_values(draw: st.DrawFn, commits: dict[str, str], golds: st.SearchStrategy[Fraction],
                  position: str) -> tuple[str, str]:
    """A value hidden in markup that does not render; returns (completion, gold)."""
    gold = draw(golds)
    g = _plain(gold)
    a = draw(alternatives(gold))
    form = commits[draw(st.sampled_from(sorted(commits)))]
    hider = HIDERS[draw(st.sampled_from(sorted(HIDERS)))]
    j = draw(st.sampled_from(["", " ", "\n", ". ", " or "]))
    pre = draw(st.sampled_from(REASONING))
    if position == "hidden_alt_after":  # visible gold, hidden second answer
        hidden = draw(st.sampled_from([a.text, _commit(form, a.text)]))
        body = _commit(form, g) + j + hider.format(hidden)
    elif position == "hidden_alt_inside":  # \boxed{5\phantom{6}}
        body = _commit(form, g + hider.format(a.text))
    elif position == "hidden_gold_after":  # visible wrong answer, gold only in the hidden part
        body = _commit(form, a.text) + j + hider.format(_commit(form, g))
    elif position == "hidden_gold_inside":  # \boxed{\phantom{5}6}
        body = _commit(form, hider.format(g) + a.text)
    elif position == "hidden_gold_before_bare":  # hidden committed gold, visible bare wrong
        body = hider.format(_commit(form, g)) + j + "So we get\n" + a.text
    else:
        raise AssertionError(position)
    return pre + body, g


@st.composite
def negated(draw: st.DrawFn, golds: st.SearchStrategy[Fraction]) -> tuple[str, str]:
    gold = draw(golds)
    g = draw(st.sampled_from([r.text for r in renderings(gold) if r.kind in ("digits", "latex")]))
    a = draw(alternatives(gold)).text
    tpl = draw(st.sampled_from(NEGATIONS + NEGATED_GOLD))
    pre = draw(st.sampled_from(REASONING))
    return pre + tpl.format(g=g, a=a), _plain(gold)


SOUND_POSITIONS = ["inside_after", "inside_before", "after", "after_commit", "around"]
HIDDEN_POSITIONS = ["hidden_alt_after", "hidden_alt_inside", "hidden_gold_after",
                    "hidden_gold_inside", "hidden_gold_before_bare"]


# ---------------------------------------------------------------------------------------
# Math
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("position", SOUND_POSITIONS)
@_profile(150)
@given(data=st.data())
def test_math_never_pays_two_values(position: str, data: st.DataObject) -> None:
    completion, gold = data.draw(two_values(MATH_COMMITS, golds_math, position))
    assert_not_paid(math_check, completion, gold)


@pytest.mark.parametrize("position", HIDDEN_POSITIONS)
@_profile(100)
@given(data=st.data())
def test_math_never_pays_hidden_values(position: str, data: st.DataObject) -> None:
    completion, gold = data.draw(hidden_values(MATH_COMMITS, golds_math, position))
    assert_not_paid(math_check, completion, gold)


@_profile(300)
@given(case=negated(golds_math))
def test_math_never_pays_negations_or_bounds(case: tuple[str, str]) -> None:
    assert_not_paid(math_check, *case)


# Dressings of a correct answer that any reader must accept. {} is the gold as written.
MATH_DRESS_COMMITS = ["boxed", "boxed_dollar", "fbox", "hashes", "the_answer_is",
                      "the_answer_is_math", "final_answer", "final_answer_bold", "last_line"]
MATH_DRESS_VALUE = ["{}", "${}$", "**{}**", r"$\mathbf{{{}}}$", r"\textbf{{{}}}"]


@st.composite
def math_correct(draw: st.DrawFn) -> tuple[str, str]:
    gold = draw(golds_math)
    gold_text = draw(st.sampled_from([_plain(gold), _latex(gold)]))
    kinds = ["digits", "latex", "latex_frac", "decimal", "dfrac", "unicode_minus",
             "latex_thousands", "decimal_zero"]
    r = draw(st.sampled_from([r for r in renderings(gold) if r.kind in kinds]))
    form_name = draw(st.sampled_from(MATH_DRESS_COMMITS))
    text = r.text
    if form_name in ("the_answer_is", "final_answer", "last_line"):
        # Outside math mode a LaTeX value needs its dollars; bold/plain are fine for digits.
        dress = draw(st.sampled_from(MATH_DRESS_VALUE if r.kind in (
            "digits", "unicode_minus", "decimal_zero") else ["${}$"]))
        text = dress.format(text)
    body = MATH_COMMITS[form_name].format(text)
    pre = draw(st.sampled_from(REASONING))
    post = draw(st.sampled_from(TRAILING_PROSE))
    if form_name == "hashes" and post[:1] not in ("", "\n", "."):
        post = "\n" + post  # the '####' line holds the number alone by convention
    return pre + body + post, gold_text


@_profile(400)
@given(case=math_correct())
def test_math_pays_correct_answer_in_ordinary_dressing(case: tuple[str, str]) -> None:
    assert_paid(math_check, *case)


@_profile(100)
@given(gold=st.integers(1, 200), a=st.integers(1, 200), post=st.sampled_from(TRAILING_PROSE))
def test_math_pays_answer_with_trailing_check(gold: int, a: int, post: str) -> None:
    """``\\boxed{5}. Check: 2 + 3 = 5`` restates the gold; it offers nothing else."""
    b = gold - a
    check = f"{a} + {b} = {gold}" if b >= 0 else f"{a} - {-b} = {gold}"
    assert_paid(math_check, rf"The answer is $\boxed{{{gold}}}$. Check: {check}{post}",
                str(gold))


# ---------------------------------------------------------------------------------------
# GSM8K
# ---------------------------------------------------------------------------------------

golds_gsm8k = st.one_of(st.integers(0, 100), st.integers(0, 10**6), st.integers(-50, -1)).map(
    Fraction)


@pytest.mark.parametrize("position", SOUND_POSITIONS)
@_profile(150)
@given(data=st.data())
def test_gsm8k_never_pays_two_values(position: str, data: st.DataObject) -> None:
    completion, gold = data.draw(two_values(GSM8K_COMMITS, golds_gsm8k, position))
    row_form = data.draw(st.sampled_from(["{}", "Some reasoning.\n#### {}"]))
    assert_not_paid(gsm8k_check, completion, row_form.format(gold))


@pytest.mark.parametrize("position", HIDDEN_POSITIONS)
@_profile(100)
@given(data=st.data())
def test_gsm8k_never_pays_hidden_values(position: str, data: st.DataObject) -> None:
    completion, gold = data.draw(hidden_values(GSM8K_COMMITS, golds_gsm8k, position))
    assert_not_paid(gsm8k_check, completion, gold)


@_profile(300)
@given(case=negated(golds_gsm8k))
def test_gsm8k_never_pays_negations_or_bounds(case: tuple[str, str]) -> None:
    assert_not_paid(gsm8k_check, *case)


@st.composite
def gsm8k_correct(draw: st.DrawFn) -> tuple[str, str]:
    n = draw(st.one_of(st.integers(0, 100), st.integers(0, 10**7), st.integers(-50, -1)))
    forms = [str(n)]
    if abs(n) >= 1000:
        forms.append(f"{n:,}")
    if n < 0:
        forms.append(f"\u2212{-n}")
    else:
        forms += [f"${n}", f"${n:,}", f"${n}.00", f"{n}.0"]
    value = draw(st.sampled_from(forms))
    unit = draw(st.sampled_from(["", " dollars", " apples", " km", " minutes", "%"]
                                if not value.startswith("$") else [""]))
    commit = draw(st.sampled_from(["#### {}", "The answer is {}", "The answer is **{}**",
                                   "Final answer: {}", r"\boxed{{{}}}", "So we get\n{}"]))
    pre = draw(st.sampled_from(REASONING))
    post = draw(st.sampled_from(TRAILING_PROSE))
    if commit.startswith("####") and post[:1] not in ("", "\n", "."):
        post = "\n" + post  # the '####' line holds the number alone by convention
    gold = draw(st.sampled_from([str(n), f"Reasoning here.\n#### {n}"]))
    return pre + commit.format(value + unit) + post, gold


@_profile(400)
@given(case=gsm8k_correct())
def test_gsm8k_pays_correct_answer_in_ordinary_dressing(case: tuple[str, str]) -> None:
    assert_paid(gsm8k_check, *case)


@_profile(100)
@given(gold=st.integers(1, 500), a=st.integers(1, 500))
def test_gsm8k_pays_answer_with_trailing_check(gold: int, a: int) -> None:
    b = gold - a
    check = f"{a} + {b} = {gold}" if b >= 0 else f"{a} - {-b} = {gold}"
    assert_paid(gsm8k_check, f"#### {gold}\nCheck: {check}", str(gold))


# ---------------------------------------------------------------------------------------
# Countdown
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    text: str
    value: Fraction | None  # None: division by zero
    used: tuple[int, ...]


def _combine(op: str, x: Expr, y: Expr) -> Expr:
    used = x.used + y.used
    if x.value is None or y.value is None:
        return Expr(f"({x.text} {op} {y.text})", None, used)
    if op == "+":
        v: Fraction | None = x.value + y.value
    elif op == "-":
        v = x.value - y.value
    elif op == "*":
        v = x.value * y.value
    else:
        v = None if y.value == 0 else x.value / y.value
    return Expr(f"({x.text} {op} {y.text})", v, used)


@st.composite
def expressions(draw: st.DrawFn, pool: list[int], depth: int = 3) -> Expr:
    """An expression over numbers drawn from ``pool`` (possibly reused or foreign)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        n = draw(st.one_of(st.sampled_from(pool), st.integers(1, 100)) if draw(
            st.integers(0, 5)) == 0 else st.sampled_from(pool))
        return Expr(str(n), Fraction(n), (n,))
    op = draw(st.sampled_from("+-*/"))
    return _combine(op, draw(expressions(pool, depth - 1)), draw(expressions(pool, depth - 1)))


def _fits(used: tuple[int, ...], numbers: list[int]) -> bool:
    left = list(numbers)
    for n in used:
        if n not in left:
            return False
        left.remove(n)
    return True


@st.composite
def countdown_rows(draw: st.DrawFn) -> tuple[list[int], Expr]:
    numbers = draw(st.lists(st.integers(1, 100), min_size=3, max_size=6))
    return numbers, draw(expressions(numbers))


def _strip_outer(text: str) -> str:
    return text[1:-1] if text.startswith("(") and text.endswith(")") else text


@_profile(400)
@given(row=countdown_rows(), think=st.sampled_from(["", "<think>Let me try.</think>\n"]))
def test_countdown_pays_exactly_the_valid_expressions(row: tuple[list[int], Expr],
                                                      think: str) -> None:
    """One clean expression: paid iff it uses given numbers at most once and hits the target."""
    numbers, e = row
    target_value = e.value if e.value is not None else Fraction(24)
    if target_value.denominator != 1:
        target_value = Fraction(round(target_value))  # targets are integers; this e now misses
    target = str(target_value.numerator)
    completion = f"{think}<answer>{_strip_outer(e.text)}</answer>"
    v = _v(countdown_check, completion, target, numbers=numbers)
    valid = e.value is not None and e.value == target_value and _fits(e.used, numbers)
    assert v.reward == (1.0 if valid else 0.0), (completion, numbers, target, v)


COUNTDOWN_TRAPS = [
    "<answer>{bad}</answer>",
    "<answer>{good}</answer><answer>{bad}</answer>",
    "<answer>{good}</answer>\n<answer>{bad}</answer>",
    "<answer>{bad} = {t}</answer>",
    "<answer>{good} or {bad}</answer>",
    "<answer>{bad}</answer><!-- <answer>{good}</answer> -->",
    "<answer>{good}</answer><!-- <answer>{bad}</answer> -->",
    "<answer>{bad}\\iffalse {good}\\fi</answer>",
    "<answer>{good}\\phantom{{+{bad}}}</answer>",
    "<answer>{good}, {bad}</answer>",
    "<answer>{good}</answer> or maybe <answer>{bad}</answer>",
    "<answer>{good}; {bad}</answer>",
    "<answer>{good} \\text{{ or }} {bad}</answer>",
    "<answer>{good}\n{bad}</answer>",
    "<answer>{good} 或 {bad}</answer>",
    "<answer>{good} = {t} or {bad}</answer>",
    "<answer>{t}</answer>",
    "<answer>{good} ≠ {t}</answer>",
    "<answer>not {good}</answer>",
]


@st.composite
def countdown_traps(draw: st.DrawFn) -> tuple[str, list[int], str]:
    numbers = draw(st.lists(st.integers(1, 100), min_size=3, max_size=6))
    good = draw(expressions(numbers).filter(
        lambda e: e.value is not None and e.value.denominator == 1 and _fits(e.used, numbers)))
    target = good.value
    bad = draw(expressions(numbers).filter(lambda e: e.value != target))
    tpl = draw(st.sampled_from(COUNTDOWN_TRAPS))
    t = str(target.numerator)
    if tpl == "<answer>{t}</answer>" and _fits((target.numerator,), numbers):
        t = str(target.numerator + 1000)  # the target itself as a given number would be valid
        target = Fraction(int(t) - 1000)
    return (tpl.format(good=_strip_outer(good.text), bad=_strip_outer(bad.text), t=t), numbers,
            str(target.numerator))


@_profile(400)
@given(case=countdown_traps())
def test_countdown_never_pays_a_second_or_hidden_expression(
        case: tuple[str, list[int], str]) -> None:
    completion, numbers, target = case
    assert_not_paid(countdown_check, completion, target, numbers=numbers)


# ---------------------------------------------------------------------------------------
# Format
# ---------------------------------------------------------------------------------------

def _visible(s: str) -> bool:
    # Control and format characters (``\x1b``, zero-width space) render as nothing.
    return any(c.isprintable() and not c.isspace() for c in s)


_tagless = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="<>"),
                   min_size=1, max_size=40).filter(_visible)
# Text outside the tags that certainly renders: letters, digits, punctuation, no entities.
_outside = st.text(alphabet=st.characters(whitelist_categories=("L", "N", "P"),
                                          blacklist_characters="<>&"),
                   min_size=1, max_size=20).filter(_visible)


@_profile(300)
@given(think=_tagless, answer=_tagless, gap=st.sampled_from(["", " ", "\n", "\n\n"]))
def test_format_pays_well_formed(think: str, answer: str, gap: str) -> None:
    assert_paid(format_check, f"<think>{think}</think>{gap}<answer>{answer}</answer>", "")


FORMAT_TRAPS = [
    "<answer>{a}</answer>",  # no think
    "<think>{t}</think>",  # no answer
    "<answer>{a}</answer><think>{t}</think>",  # wrong order
    "<think>{t}</think><answer>{a}</answer><answer>{a}</answer>",  # two answers
    "<think>{t}</think><answer>{a}</answer><!-- <answer>{a}</answer> -->",  # hidden second
    "<think>{t}</think><answer>{a}</answer>\\iffalse<answer>{a}</answer>\\fi",
    "<think>{t}<think>{t}</think></think><answer>{a}</answer>",  # nested
    "<think>{t}</think><answer>{a}",  # unclosed
    "<think>{t}<answer>{a}</answer>",  # think unclosed
    "<think>{t}</think><answer>{a}</answer>{x}",  # text after
    "{x}<think>{t}</think><answer>{a}</answer>",  # text before
    "<think>{t}</think>{x}<answer>{a}</answer>",  # text between
    "<think>{t}</think><answer><answer>{a}</answer></answer>",
    "<think>{t}</answer><answer>{a}</think>",
    "<think>{t}</think><answer>{a}</answer></answer>",
    "<think>{t}</think></think><answer>{a}</answer>",
    "<think>{t}</think><answer>{a}</answer><think>{t}</think>",
]


@_profile(400)
@given(think=_tagless, answer=_tagless, extra=_outside, tpl=st.sampled_from(FORMAT_TRAPS))
def test_format_never_pays_broken_structure(think: str, answer: str, extra: str,
                                            tpl: str) -> None:
    assert_not_paid(format_check, tpl.format(t=think, a=answer, x=extra), "")


# ---------------------------------------------------------------------------------------
# Bounded time, no exceptions
# ---------------------------------------------------------------------------------------

MB = 1 << 20
BUDGET_S = 0.5  # per call on this machine, best of three tries (other jobs share the CPU)
HARD_S = 5.0  # never, on any try

UNITS = ["\\boxed{", "}", "{", "#", "#### ", "9", "1,", "0.", "<answer>", "</answer>",
         "the answer is ", "Final answer: ", "$", "\\frac{", "\\sqrt{", "^", "^{", "(", ")",
         "1+", "*", "\\iffalse ", "\\fi", "<!--", "-->", "% ", "\n", " ", "\\text{", "or ",
         "<think>", "</think>", "\\phantom{", "\\left(", "\\right)", "x=", "=", "\\\\",
         "\u200b", "é", "五", "، ", "\\begin{comment}", "\\end{comment}", "**", "\\boxed{5}"]


def _fill(parts: list[str], size: int = MB) -> str:
    unit = "".join(parts)
    return (unit * (size // max(1, len(unit)) + 1))[:size]


def _timed(call: Callable[[], Verdict]) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        v = call()
        dt = time.perf_counter() - t0
        assert isinstance(v, Verdict)
        assert dt <= HARD_S, f"one call took {dt:.2f} s"
        best = min(best, dt)
        if best <= BUDGET_S:
            break
    return best


CHECKS: dict[str, Callable[[str], Verdict]] = {
    "math": lambda s: math_check(s, "5"),
    "gsm8k": lambda s: gsm8k_check(s, "#### 5"),
    "countdown": lambda s: countdown_check(s, "24", numbers=[1, 2, 3, 4]),
    "format": lambda s: format_check(s),
}


def _shapes() -> list[tuple[str, str]]:
    """1 MB shapes named for the report: one repeated unit, or a deep nest."""
    shapes = [(f"repeat {u!r}", _fill([u])) for u in UNITS]
    shapes += [
        ("deep braces", "\\boxed{" + "{" * (MB // 2 - 8) + "5" + "}" * (MB // 2 - 8) + "}"),
        ("deep parens", "<answer>" + "(" * (MB // 2 - 16) + "1" + ")" * (MB // 2 - 16)
         + "</answer>"),
        ("digit run in box", "\\boxed{" + "9" * (MB - 8) + "}"),
        ("digit run after hashes", "#### " + "9" * (MB - 5)),
        ("many hashes then number", "#" * (MB - 2) + " 5"),
        ("answer then 1 MB of prose", "\\boxed{5}" + _fill(["lorem ipsum "], MB - 9)),
        ("exponent tower", "\\boxed{" + "9^{" * (MB // 8) + "9" + "}" * (MB // 8) + "}"),
        ("long sum in answer tag", "<answer>" + "+".join(["1"] * (MB // 2 - 10)) + "</answer>"),
    ]
    return shapes


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_fixed_megabyte_shapes_are_fast(name: str) -> None:
    check = CHECKS[name]
    slow = []
    for label, text in _shapes():
        dt = _timed(lambda t=text: check(t))
        if dt > BUDGET_S:
            slow.append(f"{label}: {dt:.2f} s")
    assert not slow, f"{name}: over {BUDGET_S} s on 1 MB inputs: {slow}"


@_profile(8)
@given(parts=st.lists(st.sampled_from(UNITS), min_size=1, max_size=6),
       name=st.sampled_from(sorted(CHECKS)))
def test_composed_megabyte_shapes_are_fast(parts: list[str], name: str) -> None:
    text = _fill(parts)
    dt = _timed(lambda: CHECKS[name](text))
    assert dt <= BUDGET_S, f"{name} took {dt:.2f} s on {parts!r} x 1 MB"


@_profile(300)
@given(text=st.text(max_size=300), name=st.sampled_from(sorted(CHECKS)))
def test_arbitrary_text_never_raises(text: str, name: str) -> None:
    v = CHECKS[name](text)
    assert isinstance(v, Verdict)
    assert v.reward is None or 0.0 <= v.reward <= 1.0
