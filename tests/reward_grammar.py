"""The grammar of completions that ``test_reward_properties`` composes, and its labels.

Plain data (commitment forms, joiners in many scripts, hiding wrappers, negations, number
renderings) and hypothesis strategies that compose it into labelled cases: each ``Case``
says whether a sound and complete reward must pay it (``paid``) or must not
(``not_paid``), and carries the grammar choices that built it (``tags``) so that
``tests/reward_census.py`` can group violations into classes. ``PROPERTIES`` is the list
both run.

Profiles: ``profile(n)`` is derandomised with ``n`` examples (CI);
``RLVR_HYPOTHESIS_PROFILE=long`` multiplies every count by 40 (``RLVR_HYPOTHESIS_SCALE``
sets the factor; pytest's ``--hypothesis-seed=N`` varies the search).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import HealthCheck, Phase, assume, settings
from hypothesis import strategies as st

from verifiers.countdown import countdown_check
from verifiers.format import format_check
from verifiers.gsm8k import gsm8k_check
from verifiers.labelled_lines import _ANSWER_NOUN_RE
from verifiers.math import math_check
from verifiers.paragraph_commitments import _LABEL_RE
from verifiers.types import Verdict

# ---------------------------------------------------------------------------------------
# Profiles
# ---------------------------------------------------------------------------------------

_LONG = os.environ.get("RLVR_HYPOTHESIS_PROFILE", "ci") == "long"
_SCALE = float(os.environ.get("RLVR_HYPOTHESIS_SCALE", "40" if _LONG else "1"))


def profile(n: int) -> settings:
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
    "answer_colon": "Answer: {}",
    "display_boxed": "\\[\\boxed{{{}}}\\]",
}
GSM8K_COMMITS: dict[str, str] = {
    "hashes": "#### {}",
    "boxed": r"\boxed{{{}}}",
    "the_answer_is": "The answer is {}",
    "final_answer": "Final answer: {}",
    "answer_tag": "<answer>{}</answer>",
    "equals": "So the total = {}",
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
JOINERS_PLAIN = [" or ", " and ", " not ", " than ", " to ", " ± ", " +/- ", ", ", "; ",
                 " | ", "\n", "\n\n", " — ", " – ", " (", " [", " vs ", " instead of ",
                 " rather than ", ", or maybe ", " (also ", " & ", ". ", "? ", "! ", ": ",
                 " = ", " ", "\t", ", but also ", " alternatively ", " either way ",
                 "...", " \u2192 ", " ⇒ ", " ~ ", " ≈ ", " ≠ ",
                 # look-alikes and invisible separators
                 " օr ", " оr ", " ｏｒ ", "\u2800or\u2800", "\u00a0or\u00a0", "\u3000",
                 "\u200b", "\u2060", "\u200bor\u200b"]
JOINERS_MARKUP = ["<br>", "</b> <b>", " <i>", "</p><p>", " **", "\n- ", "\n1. ", "\n> ",
                  " `", "</answer> <answer>", " <sup>", " <sub>", "<span>"]
JOINERS_LATEX = [r" \quad ", r" \qquad ", r"\ ", r"\,", r"\;", r"\!", "~", r" \text{ or } ",
                 r" \text{ 或 } ", r" \mbox{ or } ", r" \textrm{ and } ", r" \text{} ",
                 r" \lor ", r" \vee ", r" \pm ", r" \mp ", r" \hspace{1em} ", r" \\ ",
                 r" \mathrm{or} ", r" \operatorname{or} ", r" \textbf{or} ", " , ", r" \, , \, "]
JOINERS: list[str] = (JOINERS_PLAIN + JOINERS_MARKUP + JOINERS_LATEX
                      + [f" {w} " for w in OR_WORDS] + [f" {w} " for w in SCRIPT_WORDS])
# Random words: letters of any script (some, like 五, are numerals: still a second value).
random_words = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Lo")),
                       min_size=1, max_size=8).map(lambda w: f" {w} ")

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
    r"\boxed{{\text{{not }}{g}}}", r"\boxed{{\lnot {g}}}", "Final answer: not {g}",
    "Final answer: more than {g}", "<answer>not {g}</answer>", "<answer>> {g}</answer>",
    # comparisons with no "answer" cue
    "greater than {g}", "It is greater than {g}.", "So it is less than {g}.",
    "It must exceed {g}.", "It is below {g}.", "well above {g}", "It is over {g}.",
    "It is {a}, which is more than {g}.", "Something bigger than {g}", "strictly less than {g}",
    "It is higher than {g}", "a number smaller than {g}",
    # other languages
    "答案不是{g}。", "Die Antwort ist nicht {g}.", "Ответ не {g}.", "La respuesta no es {g}.",
    "La réponse n'est pas {g}.", "정답은 {g}이 아닙니다.", "الجواب ليس {g}.", "उत्तर {g} नहीं है।",
    # retractions and open doubt (README: "5. No wait" and "5?" are refused)
    "The answer is {g}. No wait.", "The answer is {g}?", "The answer is {g}... or is it?",
    "Maybe {g}, maybe not.", r"\boxed{{{g}}}. No wait, that is wrong.",
]
# The alternative ``a`` stated as the answer, with the gold ``g`` only rejected.
NEGATED_GOLD = [
    "It is {a}, not {g}.", "The answer is {a}, not {g}.", "The answer is {a} and not {g}.",
    r"\boxed{{{a}}}, not {g}.", "#### {a} (not {g})", "Final answer: {a}, not {g}",
    "The answer is {a} rather than {g}.", "The answer is {a} instead of {g}.",
    "Not {g} but {a}.", "The answer is {a}; {g} is wrong.", r"\boxed{{{a} \text{{, not }} {g}}}",
]

# Prose with no numbers that may follow a final answer.
TRAILING_PROSE = ["", ".", " .", "!", "\nHope this helps!", "\nThis completes the solution.",
                  ". I hope that is clear.", "\n\nLet me know if anything is unclear.",
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
# Cases and properties
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One generated completion with its gold and what a sound reward must do with it.

    ``tags`` name the grammar choices that built it (position, form, joiner, wrapper...), so
    failures can be grouped into classes (``tests/reward_census.py``).
    """

    completion: str
    gold: str
    expect: str  # "paid": must get 1.0; "not_paid": must not get 1.0
    tags: tuple[str, ...] = ()
    numbers: tuple[int, ...] = ()  # countdown only


@dataclass(frozen=True)
class Property:
    name: str
    verifier: str
    strategy: st.SearchStrategy[Case]
    examples: int  # CI profile


VERIFIERS: dict[str, Callable[[Case], Verdict]] = {
    "math": lambda c: math_check(c.completion, c.gold),
    "gsm8k": lambda c: gsm8k_check(c.completion, c.gold),
    "countdown": lambda c: countdown_check(c.completion, c.gold, numbers=list(c.numbers)),
    "format": lambda c: format_check(c.completion),
}


def violation(prop: Property, case: Case) -> str | None:
    """Why ``case`` breaks an invariant under ``prop``'s verifier, or None."""
    v = VERIFIERS[prop.verifier](case)
    if not isinstance(v, Verdict):
        return f"returned {type(v).__name__}, not a Verdict"
    if v.reward is not None and not 0.0 <= v.reward <= 1.0:
        return f"reward {v.reward} outside [0, 1]"
    where = f"\ncompletion={case.completion!r}\ngold={case.gold!r}"
    if case.numbers:
        where += f"\nnumbers={list(case.numbers)!r}"
    if case.expect == "not_paid" and v.reward == 1.0:
        return f"{prop.verifier}: paid 1.0 for an answer that is not (only) the gold{where}\n{v}"
    if case.expect == "paid" and v.reward != 1.0:
        return f"{prop.verifier}: refused a correct answer in an ordinary dressing{where}\n{v}"
    return None


def _commit(form: str, text: str) -> str:
    return form.format(text)


def _joiner_class(j: str) -> str:
    for name, group in (("plain", JOINERS_PLAIN), ("markup", JOINERS_MARKUP),
                        ("latex", JOINERS_LATEX)):
        if j in group:
            return name
    if j.strip() in OR_WORDS:
        return "or_word"
    return "script_word" if j.strip() in SCRIPT_WORDS else "random_word"


# Commitments with no closing delimiter end at the line: a joiner with a newline puts the
# second value outside them ("x = 1\n\n786" is work, then a last line), not inside.
OPEN_FORMS = {"hashes", "the_answer_is", "final_answer", "final_answer_bold", "equals",
              "last_line"}
SOUND_POSITIONS = ["inside_after", "inside_before", "after", "after_commit", "around",
                   "before_commit"]
# What may stand before the final commitment, holding another value: a value on display
# (bold, math, code) on the same line, or an earlier commitment of the paragraph, "answer is"
# clauses in other languages included.
DISPLAY_FORMS = {"bold": "**{}**", "math": "${}$", "code": "`{}`", "paren_math": "\\({}\\)",
                 "bold_math": "**${}$**"}
EARLIER_CLAUSES = {"answer_is": "The answer is {}.", "answer_colon_bold": "**Answer:** {}",
                   "ru": "Ответ: {}", "zh": "答案是{}。", "es": "La respuesta es {}.",
                   "de": "Die Antwort ist {}.", "fr": "Réponse : {}", "ja": "答えは{}"}
# Joiners that commit the value after them to the one before ("6 = \boxed{5}" is an equation,
# read as the derivation of 5) are not offers side by side; the other joiners are.
_DERIVING = ("=", "\u2192", "⇒", ": ")
HIDDEN_POSITIONS = ["hidden_alt_after", "hidden_alt_inside", "hidden_gold_after",
                    "hidden_gold_inside", "hidden_gold_before_bare", "hidden_gold_after_bare"]


@st.composite
def two_values(draw: st.DrawFn, commits: dict[str, str], golds: st.SearchStrategy[Fraction],
               position: str) -> Case:
    """The gold and a different value, both on offer."""
    gold = draw(golds)
    g = draw(st.sampled_from([r for r in renderings(gold) if r.kind in
                              ("digits", "latex", "latex_thousands", "thousands")]))
    a = draw(alternatives(gold))
    form_name = draw(st.sampled_from(sorted(commits)))
    form = commits[form_name]
    open_inside = position.startswith("inside") and form_name in OPEN_FORMS
    j = draw(st.one_of(
        st.sampled_from([x for x in JOINERS if not (open_inside and "\n" in x)]), random_words))
    pre = draw(st.sampled_from(REASONING))
    post = draw(st.sampled_from(TRAILING_PROSE))
    # "1 +0" inside one commitment is the sum 1 + 0, one value (as \boxed{2+3} is 5): a
    # signed zero after the gold is arithmetic that keeps it, not a second offer
    assume(not (position == "inside_after" and a.text[:1] in "+-"
                and a.text[1:].strip("0.") == ""))
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
    elif position == "before_commit":  # **6** / \boxed{5}, The answer is 6. \quad #### 5
        kind = draw(st.sampled_from(["display", "commit", "clause"]))
        first = draw(st.sampled_from(sorted(
            {"display": DISPLAY_FORMS, "commit": commits, "clause": EARLIER_CLAUSES}[kind].items())))
        # a display on an earlier line is revised by the commitment after it; an earlier
        # commitment holds for the whole paragraph
        j = draw(st.sampled_from([x for x in JOINERS if "\n\n" not in x
                                  and not any(d in x for d in _DERIVING)
                                  and (kind != "display" and first[0] not in OPEN_FORMS
                                       or "\n" not in x)]))
        assume(form_name not in ("last_line", "equals", "equals_math"))
        body = _commit(first[1], a.text) + j + _commit(form, g.text)
        j = f"{kind}:{first[0]}{j}"
    else:
        raise AssertionError(position)
    gold_text = draw(st.sampled_from([_plain(gold), _latex(gold)]))
    return Case(pre + body + post, gold_text, "not_paid",
                (position, f"form={form_name}", f"joiner={_joiner_class(j)}:{j!r}",
                 f"alt={a.kind}"))


@st.composite
def hidden_values(draw: st.DrawFn, commits: dict[str, str], golds: st.SearchStrategy[Fraction],
                  position: str) -> Case:
    """A value hidden in markup that does not render, next to a visible one."""
    gold = draw(golds)
    g = _plain(gold)
    a = draw(alternatives(gold))
    form_name = draw(st.sampled_from(sorted(commits)))
    form = commits[form_name]
    hider_name = draw(st.sampled_from(sorted(HIDERS)))
    hider = HIDERS[hider_name]
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
    elif position == "hidden_gold_after_bare":  # "So it is 6.% \boxed{5}": on the same line
        body = f"So it is {a.text}." + j + hider.format(_commit(form, g))
    else:
        raise AssertionError(position)
    return Case(pre + body, g, "not_paid",
                (position, f"form={form_name}", f"hider={hider_name}", f"alt={a.kind}"))


@st.composite
def negated(draw: st.DrawFn, golds: st.SearchStrategy[Fraction]) -> Case:
    """The gold only negated, bounded or rejected."""
    gold = draw(golds)
    g = draw(st.sampled_from([r.text for r in renderings(gold) if r.kind in ("digits", "latex")]))
    a = draw(alternatives(gold)).text
    tpl = draw(st.sampled_from(NEGATIONS + NEGATED_GOLD))
    pre = draw(st.sampled_from(REASONING))
    kind = "negation" if tpl in NEGATIONS else "negated_gold"
    return Case(pre + tpl.format(g=g, a=a), _plain(gold), "not_paid", (kind, f"tpl={tpl!r}"))


# ---------------------------------------------------------------------------------------
# Completeness compositions
# ---------------------------------------------------------------------------------------

MATH_DRESS_COMMITS = ["boxed", "boxed_dollar", "fbox", "hashes", "the_answer_is",
                      "the_answer_is_math", "final_answer", "final_answer_bold", "last_line",
                      "answer_colon", "display_boxed"]
# Outside math mode: plain, in dollars, bold (markdown, math, text).
MATH_DRESS_VALUE = ["{}", "${}$", "**{}**", r"$\mathbf{{{}}}$", r"\textbf{{{}}}"]


def _prose_after(form_name: str, post: str) -> str:
    if form_name.startswith("hashes") and post.strip() not in ("", ".") and post[:1] != "\n":
        return "\n" + post  # the '####' line holds the number alone by convention
    return post


@st.composite
def math_correct(draw: st.DrawFn) -> Case:
    gold = draw(golds_math)
    gold_text = draw(st.sampled_from([_plain(gold), _latex(gold)]))
    kinds = ["digits", "latex", "latex_frac", "decimal", "dfrac", "unicode_minus",
             "latex_thousands", "decimal_zero"]
    r = draw(st.sampled_from([r for r in renderings(gold) if r.kind in kinds]))
    form_name = draw(st.sampled_from(MATH_DRESS_COMMITS))
    text, dress = r.text, "{}"
    if form_name in ("the_answer_is", "final_answer", "last_line", "answer_colon"):
        # Outside math mode LaTeX needs its dollars; plain digits may be bold or bare.
        dress = draw(st.sampled_from(MATH_DRESS_VALUE if r.kind in (
            "digits", "unicode_minus", "decimal_zero") else ["${}$"]))
        text = dress.format(text)
    pre = draw(st.sampled_from(REASONING))
    post = _prose_after(form_name, draw(st.sampled_from(TRAILING_PROSE)))
    return Case(pre + MATH_COMMITS[form_name].format(text) + post, gold_text, "paid",
                ("correct", f"form={form_name}", f"value={r.kind}", f"dress={dress!r}"))


CHECK_LEADS = ["\nCheck: ", "\n\nWait, is that right? Yes: ", "\nVerification: ",
               "\nIndeed, ", "\nSanity check: ", "\n(check: "]


@st.composite
def trailing_check(draw: st.DrawFn, template: str) -> Case:
    """``... 5. Check: 2 + 3 = 5`` restates the gold; it offers nothing else."""
    gold = draw(st.integers(1, 500))
    a = draw(st.integers(1, 500))
    check = f"{a} + {gold - a} = {gold}" if gold >= a else f"{a} - {a - gold} = {gold}"
    post = draw(st.sampled_from(TRAILING_PROSE))
    lead = draw(st.sampled_from(CHECK_LEADS))
    check += ")" if lead.endswith("(check: ") else ""
    return Case(template.format(g=gold) + lead + check + post, str(gold), "paid",
                ("trailing_check", f"tpl={template!r}", f"lead={lead!r}"))


golds_gsm8k = st.one_of(st.integers(0, 100), st.integers(0, 10**6),
                        st.integers(-50, -1)).map(Fraction)


@st.composite
def gsm8k_correct(draw: st.DrawFn) -> Case:
    n = draw(st.one_of(st.integers(0, 100), st.integers(0, 10**7), st.integers(-50, -1)))
    forms = {"plain": str(n)}
    if abs(n) >= 1000:
        forms["thousands"] = f"{n:,}"
    if n < 0:
        forms["unicode_minus"] = f"\u2212{-n}"
        forms["en_dash_minus"] = f"\u2013{-n}"
    else:
        forms.update({"currency": f"${n}", "currency_thousands": f"${n:,}",
                      "currency_cents": f"${n}.00", "decimal_zero": f"{n}.0",
                      "currency_euro": f"€{n}", "currency_pound": f"£{n}"})
    kind = draw(st.sampled_from(sorted(forms)))
    value = forms[kind]
    boxable = not kind.startswith("currency")  # "#### \boxed{$5}" is no ordinary dressing
    commits = {"hashes": "#### {}", "the_answer_is": "The answer is {}",
               "bold": "The answer is **{}**", "final_answer": "Final answer: {}",
               "boxed": r"\boxed{{{}}}", "last_line": "So we get\n{}",
               **({"hashes_boxed": r"#### \boxed{{{}}}"} if boxable else {})}
    form_name = draw(st.sampled_from(sorted(commits)))
    unit = draw(st.sampled_from([""] if kind.startswith("currency") or form_name == "hashes_boxed"
                                else ["", " dollars", " apples", " km", " minutes", "%"]))
    pre = draw(st.sampled_from(REASONING))
    post = _prose_after(form_name, draw(st.sampled_from(TRAILING_PROSE)))
    gold = draw(st.sampled_from([str(n), f"Reasoning here.\n#### {n}"]))
    return Case(pre + commits[form_name].format(value + unit) + post, gold, "paid",
                ("correct", f"form={form_name}", f"value={kind}", f"unit={unit!r}"))


# ---------------------------------------------------------------------------------------
# Countdown
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    text: str
    value: Fraction | None  # None: divides by zero
    used: tuple[int, ...]


def _combine(op: str, x: Expr, y: Expr) -> Expr:
    text, used = f"({x.text} {op} {y.text})", x.used + y.used
    if x.value is None or y.value is None or (op == "/" and y.value == 0):
        return Expr(text, None, used)
    ops: dict[str, Callable[[Fraction, Fraction], Fraction]] = {
        "+": lambda p, q: p + q, "-": lambda p, q: p - q,
        "*": lambda p, q: p * q, "/": lambda p, q: p / q}
    return Expr(text, ops[op](x.value, y.value), used)


@st.composite
def expressions(draw: st.DrawFn, pool: list[int], depth: int = 3) -> Expr:
    """An expression over numbers from ``pool``; now and then a foreign one (1..100)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        foreign = draw(st.integers(0, 7)) == 0
        n = draw(st.integers(1, 100) if foreign else st.sampled_from(pool))
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


def _strip_outer(text: str) -> str:
    return text[1:-1] if text.startswith("(") and text.endswith(")") else text


_numbers = st.lists(st.integers(1, 100), min_size=3, max_size=6)


@st.composite
def countdown_exact(draw: st.DrawFn) -> Case:
    """One clean expression: paid iff it uses given numbers at most once and hits the target."""
    numbers = draw(_numbers)
    e = draw(expressions(numbers))
    target = e.value if e.value is not None and e.value.denominator == 1 else None
    if target is None:  # targets are integers: aim this expression at one it misses
        target = Fraction(draw(st.integers(1, 1000)))
    valid = e.value == target and _fits(e.used, numbers)
    think = draw(st.sampled_from(["", "<think>Let me try.</think>\n"]))
    reason = "valid" if valid else ("reuses_or_foreign" if e.value == target else "misses")
    return Case(f"{think}<answer>{_strip_outer(e.text)}</answer>", str(target.numerator),
                "paid" if valid else "not_paid", ("exact", reason), tuple(numbers))


COUNTDOWN_TRAPS = [
    "<answer>{good}</answer><answer>{bad}</answer>",
    "<answer>{good}</answer>\n<answer>{bad}</answer>",
    "<answer>{bad} = {t}</answer>",
    "<answer>{good} or {bad}</answer>",
    "<answer>{bad}</answer><!-- <answer>{good}</answer> -->",
    "<answer>{good}</answer><!-- <answer>{bad}</answer> -->",
    "<answer>{bad}</answer>\\iffalse <answer>{good}</answer>\\fi",
    "<answer>{bad}\\iffalse {good}\\fi</answer>",
    "<answer>{good}\\phantom{{+{bad}}}</answer>",
    "<answer>{good}, {bad}</answer>",
    "<answer>{good}</answer> or maybe <answer>{bad}</answer>",
    "<answer>{good}; {bad}</answer>",
    "<answer>{good} \\text{{ or }} {bad}</answer>",
    "<answer>{good}\n{bad}</answer>",
    "<answer>{good} 或 {bad}</answer>",
    "<answer>{good} = {t} or {bad}</answer>",
    "<answer>{good} ≠ {t}</answer>",
    "<answer>not {good}</answer>",
    "<answer>{good}</answer> Actually, <answer>{bad}</answer>",
    "<answer>{good} <!-- {bad} --></answer>",
    "<answer>{bad} <!-- {good} --></answer>",
]


@st.composite
def countdown_traps(draw: st.DrawFn) -> Case:
    """A valid expression next to an invalid one, or the valid one negated/hidden."""
    numbers = draw(_numbers)
    good = draw(expressions(numbers).filter(
        lambda e: e.value is not None and e.value.denominator == 1 and _fits(e.used, numbers)))
    target = good.value
    bad = draw(expressions(numbers).filter(lambda e: e.value != target))
    tpl = draw(st.sampled_from(COUNTDOWN_TRAPS))
    t = str(target.numerator)
    completion = tpl.format(good=_strip_outer(good.text), bad=_strip_outer(bad.text), t=t)
    return Case(completion, t, "not_paid", ("trap", f"tpl={tpl!r}"), tuple(numbers))


COUNTDOWN_COMMITS = {"tag": "<answer>{}</answer>", "hashes": "#### {}"}
COUNTDOWN_FIRST = {**COUNTDOWN_COMMITS, **DISPLAY_FORMS, "answer_is": "The answer is {}.",
                   "boxed": "\\boxed{{{}}}"}


@st.composite
def countdown_joined(draw: st.DrawFn) -> Case:
    """Another expression before the final commitment: an earlier commitment of the paragraph
    or a display on its line, joined to it by anything that does not derive it."""
    numbers = draw(_numbers)
    good = draw(expressions(numbers).filter(
        lambda e: e.value is not None and e.value.denominator == 1 and _fits(e.used, numbers)))
    bad = draw(expressions(numbers).filter(lambda e: e.value != good.value))
    first = draw(st.sampled_from(sorted(COUNTDOWN_FIRST)))
    display = first in DISPLAY_FORMS
    j = draw(st.sampled_from([x for x in JOINERS if "\n\n" not in x
                              and not any(d in x for d in _DERIVING)
                              and (not (display or first == "hashes") or "\n" not in x)]))
    last = draw(st.sampled_from(sorted(COUNTDOWN_COMMITS)))
    t = str(good.value.numerator)  # type: ignore[union-attr]
    completion = (COUNTDOWN_FIRST[first].format(_strip_outer(bad.text)) + j
                  + COUNTDOWN_COMMITS[last].format(_strip_outer(good.text)))
    return Case(completion, t, "not_paid", ("joined", f"first={first}", f"last={last}",
                                            f"joiner={j!r}"), tuple(numbers))


# ---------------------------------------------------------------------------------------
# Format
# ---------------------------------------------------------------------------------------

def _visible(s: str) -> bool:
    # Control and format characters (``\x1b``, zero-width space) and lone markup render as
    # nothing: ask for a letter or a digit, and not one of the letters that render blank
    # (the Hangul fillers, U+115F and U+3164: letters by category, blank by name).
    return any(c.isalnum() and "FILLER" not in unicodedata.name(c, "") for c in s)


# Tag contents: anything but markup (tags, entities, LaTeX commands and groups), and not one
# of the placeholders that format's docstring names as no answer ("TODO", "N/A", "NULL": its
# letters spell one of these words).
_PLACEHOLDER_LETTERS = {"todo", "tbd", "tba", "tbc", "na", "none", "null", "nil", "undefined", "nan", "unknown",
                        "idontknow", "idk", "noidea", "notsure", "answer", "youranswer", "theanswer", "myanswer",
                        "finalanswer", "answerhere", "youranswerhere", "answergoeshere", "insertanswer",
                        "insertyouranswer", "insertanswerhere", "insertyouranswerhere", "placeholder", "fillin",
                        "fillthisin", "blank", "insert", "yourresult", "yoursolution", "finalresult", "finalsolution"}
_tagless = st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                          blacklist_characters="<>&\\{}"),
                   min_size=1, max_size=40).filter(_visible).filter(
    lambda t: re.sub(r"[^a-z]", "", unicodedata.normalize("NFKC", t).casefold()) not in _PLACEHOLDER_LETTERS)
# Text outside the tags that certainly renders: letters, digits, punctuation, no entities.
_outside = st.text(alphabet=st.characters(whitelist_categories=("L", "N", "P"),
                                          blacklist_characters="<>&"),
                   min_size=1, max_size=20).filter(_visible)


@st.composite
def format_well_formed(draw: st.DrawFn) -> Case:
    gap = draw(st.sampled_from(["", " ", "\n", "\n\n"]))
    return Case(f"<think>{draw(_tagless)}</think>{gap}<answer>{draw(_tagless)}</answer>", "",
                "paid", ("well_formed", f"gap={gap!r}"))


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
    "<think>{t}</think><answer>{a}</answer><span style=\"display:none\"><answer>{a}</answer></span>",
]


@st.composite
def format_traps(draw: st.DrawFn) -> Case:
    tpl = draw(st.sampled_from(FORMAT_TRAPS))
    text = tpl.format(t=draw(_tagless), a=draw(_tagless), x=draw(_outside))
    return Case(text, "", "not_paid", ("trap", f"tpl={tpl!r}"))


# ---------------------------------------------------------------------------------------
# Values that are not the gold though they look or evaluate close to it
# ---------------------------------------------------------------------------------------

_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _words(n: int) -> str:
    """English words for 0 <= n < 1000."""
    if n < 20:
        return NUMBER_WORDS[n] if n <= 20 else ""
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + NUMBER_WORDS[n % 10])
    rest = n % 100
    return NUMBER_WORDS[n // 100] + " hundred" + ("" if rest == 0 else " " + _words(rest))


# Words that change the amount whatever the question counts ("58 percent" or "5 dozen" can
# be the right answer to "what percent" or "how many dozen", so they are not here).
AMOUNT_SCALES = ["hundred", "thousand", "million", "squared", "cubed", "doubled", "halved",
                 "times ten", "x 10", "thousandths"]


@st.composite
def gsm8k_amount_words(draw: st.DrawFn) -> Case:
    """``#### twenty, eight`` is a list, ``#### one thousand one thousand`` two amounts,
    ``#### 18 twelfths`` not 18."""
    n = draw(st.integers(2, 999))
    forms = {f"scale:{w}": f"{n} {w}" for w in AMOUNT_SCALES}
    words = _words(n)
    if " " in words:
        for sep in (", ", "; ", " / ", ","):
            forms[f"split:{sep!r}"] = sep.join(words.split(" "))
    if n % 2 == 0:
        forms["half twice, words"] = f"{_words(n // 2)} {_words(n // 2)}"
        forms["half twice, digits"] = f"{n // 2} {n // 2}"
    kind = draw(st.sampled_from(sorted(forms)))
    commit = draw(st.sampled_from(["#### {}", "The answer is {}.", r"\boxed{{{}}}"]))
    return Case(draw(st.sampled_from(REASONING)) + commit.format(forms[kind]), str(n),
                "not_paid", ("amount", kind, f"commit={commit!r}"))


@st.composite
def math_near_misses(draw: st.DrawFn) -> Case:
    """Exact values off by less than any float tolerance, and ordered pairs as sets."""
    kind = draw(st.sampled_from(["tiny_offset", "relative_offset", "long_decimal", "giant_plus",
                                 "pair_as_set", "pair_reversed"]))
    k = draw(st.integers(16, 300))
    if kind in ("pair_as_set", "pair_reversed"):
        x, y = draw(st.integers(-20, 20)), draw(st.integers(-20, 20))
        if x == y:
            y = x + 1
        gold = f"({x}, {y})"
        pred = rf"\{{{y}, {x}\}}" if kind == "pair_as_set" else f"({y}, {x})"
    elif kind == "giant_plus":
        e = draw(st.integers(20, 400))
        gold, pred = f"10^{{{e}}}", f"10^{{{e}}} + {draw(st.integers(1, 9))}"
    else:
        g = draw(golds_math.filter(bool))  # 0 times (1 + tiny) is still 0
        gold = _latex(g)
        pred = {"tiny_offset": f"{gold} + 10^{{-{k}}}",
                "relative_offset": f"({gold})(1 + 10^{{-{k}}})",
                "long_decimal": f"{_plain(g)}{'' if '.' in _plain(g) or '/' in _plain(g) else '.'}"
                                f"{'0' * k}1"}[kind]
        if "/" in _plain(g) and kind == "long_decimal":
            pred = f"{gold} + 0.{'0' * k}1"
    form = draw(st.sampled_from([r"\boxed{{{}}}", r"The answer is ${}$."]))
    return Case(form.format(pred), gold, "not_paid", ("near_miss", kind))


FORMAT_BLANKS = [r"\strut", r"\null", r"\kern1em", r"\hfill", r"\hbox{}", r"\textcolor{white}{x}",
                 "[](#)", r"\phantom{x}", r"\vphantom{x}", r"\mbox{}", r"\hspace{1em}",
                 r"\quad", r"\relax", r"{\color{white} x}", "<span></span>", "&#8203;",
                 "<!-- x -->", r"\iffalse x\fi", r"\smash{}", r"\rule{0pt}{0pt}", "&nbsp;",
                 "\u200b", "\u2800", "\u3164", r"\,", r"\mathstrut", "<br>", "**  **"]


@st.composite
def format_blank_answer(draw: st.DrawFn) -> Case:
    """An ``<answer>`` (or ``<think>``) that renders nothing is an empty tag."""
    blank = "".join(draw(st.lists(st.sampled_from(FORMAT_BLANKS), min_size=1, max_size=3)))
    where = draw(st.sampled_from(["answer", "think"]))
    text = draw(_tagless)
    body = (f"<think>{text}</think><answer>{blank}</answer>" if where == "answer"
            else f"<think>{blank}</think><answer>{text}</answer>")
    return Case(body, "", "not_paid", (f"blank_{where}", f"blank={blank!r}"))


# ---------------------------------------------------------------------------------------
# The properties (one test each; ``tests/reward_census.py`` runs the same list)
# ---------------------------------------------------------------------------------------

PROPERTIES: list[Property] = (
    [Property(f"math_two_values_{p}", "math", two_values(MATH_COMMITS, golds_math, p), 150)
     for p in SOUND_POSITIONS]
    + [Property(f"math_{p}", "math", hidden_values(MATH_COMMITS, golds_math, p), 100)
       for p in HIDDEN_POSITIONS]
    + [Property("math_negations_and_bounds", "math", negated(golds_math), 300),
       Property("math_correct_dressings", "math", math_correct(), 400),
       Property("math_trailing_check", "math",
                trailing_check(r"The answer is $\boxed{{{g}}}$."), 100),
       Property("math_near_misses", "math", math_near_misses(), 200)]
    + [Property(f"gsm8k_two_values_{p}", "gsm8k", two_values(GSM8K_COMMITS, golds_gsm8k, p),
                150) for p in SOUND_POSITIONS]
    + [Property(f"gsm8k_{p}", "gsm8k", hidden_values(GSM8K_COMMITS, golds_gsm8k, p), 100)
       for p in HIDDEN_POSITIONS]
    + [Property("gsm8k_negations_and_bounds", "gsm8k", negated(golds_gsm8k), 300),
       Property("gsm8k_correct_dressings", "gsm8k", gsm8k_correct(), 400),
       Property("gsm8k_trailing_check", "gsm8k", trailing_check("#### {g}"), 100),
       Property("gsm8k_amount_words", "gsm8k", gsm8k_amount_words(), 200),
       Property("countdown_exact", "countdown", countdown_exact(), 500),
       Property("countdown_traps", "countdown", countdown_traps(), 400),
       Property("countdown_joined", "countdown", countdown_joined(), 300),
       Property("format_well_formed", "format", format_well_formed(), 300),
       Property("format_traps", "format", format_traps(), 400),
       Property("format_blank_answer", "format", format_blank_answer(), 200)]
)


# ---------------------------------------------------------------------------------------
# h9: the answer's own sentence and what follows it (issue 30: conditions, negations,
# bounds, scales, value words, denials, retractions, check twists, a second choice letter)
# ---------------------------------------------------------------------------------------

# How the gold is committed to; {} is the value.
H9_BOXES = [r"\boxed{{{}}}", r"$\boxed{{{}}}$", "\\[\n\\boxed{{{}}}\n\\]",
            "**Final Answer**\n\\[\n\\boxed{{{}}}\n\\]", r"The answer is $\boxed{{{}}}$"]
# The gold qualified, denied or taken back ({c}: the committed gold, {g}: the gold, {o}:
# another value). Each must score 0.
H9_NOT_PAID = {
    "condition_after": ["{c} if n is odd.", "{c} when n is even.", "{c}, provided n is prime.",
                        "{c} (assuming the coin is fair)", "{c} for positive x.",
                        "{c} unless x is negative.", "{c} si n es impar.", "{c} falls n gerade ist."],
    "condition_before": ["If n is odd, {b}.", "In case a, {b}.", "\u5f53n\u4e3a\u5947\u6570\u65f6, {b}.",
                         "If n is odd, the answer is {g}."],
    "bound_or_negation": ["{c} is wrong.", "The answer is at least {b}.",
                          "Zach can have at most {b} pencils left over.",
                          "{c} or higher.", "{c} max.", "{c} minimum.", "{c} and up.", "Never {b}.",
                          "{c} is an upper bound.", "{c} \u274c", "{c} (wrong)",
                          "It is not {b}.", "{c} or not."],
    "scale": ["{c} squared", "{c} cubed", "{c} lakh", "{c} crore", "{c}\u00b2",
              "{c} M"],
    "value_word": ["{c} or half.", "{c} or none.", "{c} or \u221e.", "{c} or a few.",
                   "{c}, or nothing."],
    "self_denial": ["{c}\n\nNot {g}.", "{c}, not {g}", "{c} (not {g})", "{c}\n\nSo it's not {g}.",
                    "{c}, though {g} is incorrect.", "{c}\n\n{g} is wrong."],
    "approximation": ["~{b}", "etwa {b}", "\u7ea6{b}", "{c} (rounded)", "{c}\u5de6\u53f3",
                      "ungef\u00e4hr {b}", "{c} (estimate)"],
    "retraction": ["{c}\n\nThat doesn't work.", "{c}\nIgnore the above.",
                   "{c} Hmm, that can't be right.", "{c}\n\nThis is probably wrong.",
                   "{c}. \u7b49\u7b49\uff0c\u8fd9\u4e0d\u5bf9\u3002", "{c}\n\nI retract that answer.",
                   "{c} Espera, eso est\u00e1 mal."],
    "check_twist": ["{c}\n\nCheck: {o} = {g}.", "{c}\n\nCheck: {o} + 0 = {g}.",
                    "{c}\n\nVerification: {o} \\times 1 = {g}."],
    "unboxed_denial": ["{g} is wrong.", "x != {g}", "{g}+", "Non \u00e8 {g}.", "Bukan {g}.",
                       "To nie jest {g}.", "mehr als {g}", "x =\u0338 {g}",
                       "\u043e\u043a\u043e\u043b\u043e {g}"],
}
H9_CHOICE_NOT_PAID = [r"\boxed{{{g}}} (or {o})", r"\boxed{{{g}}} or ({o})", r"\boxed{{{g}}} and {o}",
                      r"\boxed{{{g}}} / {o}", "\\boxed{{{g}}}\n\nOption ({o}) is equally valid."]
# The gold with ordinary prose after (or before) it. Each must be paid.
H9_PAID = ["{c}, which is the number of apples.", "{b} (since {a} + {d} = {g})",
           "$\\boxed{{{g}}}$ is the answer.", "{c}\n\nWait, let me verify: {a} + {d} = {g}. Yes.",
           "{c} apples.", "{c} in total.",
           "{c} $\\blacksquare$", "{c}\n\nHope this helps!", "{c} square units.",
           "If we add them, we get {b}.", "{c} different ways to choose them.",
           "{c} (option B is incorrect)",
           "{c} more than Susan.", "{c}\n\nLet me know if anything is unclear."]


@st.composite
def h9_qualified_gold(draw: st.DrawFn, verifier: str) -> Case:
    """The gold qualified, denied or taken back after (or before) its commitment."""
    g = draw(st.integers(2, 500))
    o = draw(st.integers(1, 500).filter(lambda v: v != g))
    kind = draw(st.sampled_from(sorted(H9_NOT_PAID)))
    tpl = draw(st.sampled_from(H9_NOT_PAID[kind]))
    box = draw(st.sampled_from(H9_BOXES))
    c = box.format(g)
    b = rf"\boxed{{{g}}}"
    pre = draw(st.sampled_from(REASONING))
    return Case(pre + tpl.format(c=c, b=b, g=g, o=o), str(g), "not_paid",
                ("h9", kind, f"tpl={tpl!r}", f"box={box!r}"))


@st.composite
def h9_second_choice(draw: st.DrawFn) -> Case:
    g, o = draw(st.permutations("ABCDE"))[:2]
    tpl = draw(st.sampled_from(H9_CHOICE_NOT_PAID))
    return Case(tpl.format(g=g, o=o), g, "not_paid", ("h9", "second_choice", f"tpl={tpl!r}"))


@st.composite
def h9_prose_after(draw: st.DrawFn) -> Case:
    """The gold, then ordinary prose in its sentence or after it: paid."""
    g = draw(st.integers(2, 500))
    a = draw(st.integers(1, g - 1))
    tpl = draw(st.sampled_from(H9_PAID))
    box = draw(st.sampled_from(H9_BOXES))
    pre = draw(st.sampled_from(REASONING))
    text = tpl.format(c=box.format(g), b=rf"\boxed{{{g}}}", g=g, a=a, d=g - a)
    return Case(pre + text, str(g), "paid", ("h9", "prose_after", f"tpl={tpl!r}", f"box={box!r}"))


PROPERTIES += [
    Property("h9_math_qualified_gold", "math", h9_qualified_gold("math"), 300),
    Property("h9_gsm8k_qualified_gold", "gsm8k", h9_qualified_gold("gsm8k"), 300),
    Property("h9_math_second_choice", "math", h9_second_choice(), 60),
    Property("h9_math_prose_after", "math", h9_prose_after(), 200),
    Property("h9_gsm8k_prose_after", "gsm8k", h9_prose_after(), 200),
]


# Rendering (helper h8, issue 30 item 1): the normaliser reads what a reader sees. Content
# that does not render (or may not: a style, a class, a false conditional) holding a value
# is refused; bidirectional controls next to digits are refused (they reorder what renders);
# a sign glued to a word of a script without word spaces is the number's sign; a currency
# sign is its unit. Every wrapper is composed from parts, never listed whole.
# ---------------------------------------------------------------------------------------

# HTML elements whose content is not shown as plain text (not rendered, collapsed, struck
# out, reordered or only a fallback).
NOT_TEXT_ELEMENTS = ["script", "style", "template", "noscript", "title", "head", "iframe",
                     "object", "video", "audio", "canvas", "svg", "details", "dialog",
                     "datalist", "select", "option", "noembed", "noframes", "textarea",
                     "del", "s", "strike", "bdo", "marquee", "rt", "rp"]
# Elements that do render text: with a hiding attribute they may not.
TEXT_ELEMENTS = ["span", "div", "p", "b", "i", "em", "strong", "font", "small", "code",
                 "think", "answer", "section", "label", "li", "td", "sup", "a", "abbr"]
CSS_HIDING = ["display:none", "visibility:hidden", "opacity:0", "opacity: 0.0", "font-size:0",
              "font-size:0px", "color:transparent", "color:rgba(0,0,0,0)",
              "color:hsla(0, 0%, 0%, 0)", "position:absolute;left:-9999px", "clip:rect(0,0,0,0)",
              "width:0;overflow:hidden", "transform:scale(0)", "text-indent:-9999px",
              "color:#fefefe", "filter:opacity(0)", "max-height:0;overflow:hidden"]
CSS_HIDING_CLASSES = ["sr-only", "visually-hidden", "hidden", "d-none", "invisible",
                      "screen-reader-text", "hide"]
TEXT_ATTRIBUTES = ["alt", "title", "value", "placeholder", "content", "label", "data-answer",
                   "aria-label"]
_ascii_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=6)


def _html_case(name: str, upper: bool) -> str:
    return name.upper() if upper else name


@st.composite
def html_hiders(draw: st.DrawFn) -> tuple[str, str]:
    """``(kind, template)``: an HTML construct whose ``{}`` does not (surely) render."""
    q = draw(st.sampled_from(['"', "'"]))
    kind = draw(st.sampled_from(["element", "attribute_hides", "attribute_text", "pi"]))
    if kind == "element":
        name = _html_case(draw(st.sampled_from(NOT_TEXT_ELEMENTS)), draw(st.booleans()))
        extra = draw(st.sampled_from(["", " id=x", f" lang={q}en{q}", " open"]))
        inner = draw(st.sampled_from(["{}", "<summary>more</summary>{}", "<text>{}</text>",
                                      ".a::before{{content:'{}'}}"]))
        return f"element:{name.lower()}", f"<{name}{extra}>{inner}</{name}>"
    if kind == "attribute_hides":
        name = _html_case(draw(st.sampled_from(TEXT_ELEMENTS)), draw(st.booleans()))
        how = draw(st.sampled_from(["style", "class", "hidden", "aria-hidden"]))
        if how == "style":
            css = ";".join(draw(st.permutations([draw(st.sampled_from(CSS_HIDING)),
                                                 draw(st.sampled_from(["color:red", "margin:0",
                                                                       "font-weight:bold"]))])))
            attr = f"style={q}{css}{q}"
        elif how == "class":
            attr = f"class={q}{draw(_ascii_names)} {draw(st.sampled_from(CSS_HIDING_CLASSES))}{q}"
        elif how == "hidden":
            attr = draw(st.sampled_from(["hidden", f"hidden={q}hidden{q}", "HIDDEN"]))
        else:
            attr = f"aria-hidden={q}true{q}"
        return f"attribute:{how}", f"<{name} {attr}>{{}}</{name}>"
    if kind == "attribute_text":
        attr = draw(st.sampled_from(TEXT_ATTRIBUTES))
        element = draw(st.sampled_from(['<img src="a.png" {}>', "<abbr {}>ans</abbr>",
                                        '<input type="text" {}>', "<meta {}>",
                                        "<span {}>see</span>"]))
        return f"text_attribute:{attr}", element.replace("{}", f"{attr}={q}{{}}{q}")
    pi = draw(st.sampled_from(["<?php /* {} */ ?>", "<?{} ?>", "<![CDATA[{}]]>",
                               "<!DOCTYPE {}>"]))
    return "processing_instruction", pi


@st.composite
def latex_hiders(draw: st.DrawFn) -> tuple[str, str]:
    """``(kind, template)``: a LaTeX construct whose ``{}`` does not (surely) render."""
    kind = draw(st.sampled_from(["conditional", "definition", "label", "html_hook",
                                 "transform", "color", "math_comment"]))
    name = draw(_ascii_names.filter(lambda s: s != "f"))  # \iff is a symbol, not a test
    if kind == "conditional":
        test = draw(st.sampled_from(["", "0", "num0=1", "x ab", "dim0pt>1pt", "odd2", "case 3"]))
        head = draw(st.sampled_from([f"\\if{name}{test} ", f"\\if{test} "]))
        body = draw(st.sampled_from(["{}", "{} \\else x", "x \\else {}"]))
        return "conditional", head.replace("{", "{{").replace("}", "}}") + body + " \\fi"
    if kind == "definition":
        form = draw(st.sampled_from(["\\def\\NAME{{{}}}", "\\gdef\\NAME{{{}}}",
                                     "\\def\\NAME#1{{{}}}", "\\newcommand{{\\NAME}}{{{}}}",
                                     "\\renewcommand{{\\NAME}}[1]{{{}}}",
                                     "\\providecommand*{{\\NAME}}{{{}}}",
                                     "\\DeclareMathOperator{{\\NAME}}{{{}}}"]))
        return "definition", form.replace("NAME", name)
    if kind == "label":
        return "label", draw(st.sampled_from(["\\label{{{}}}", "$x\\label{{{}}}$"]))
    if kind == "html_hook":
        css = draw(st.sampled_from(CSS_HIDING))
        cls = draw(st.sampled_from(CSS_HIDING_CLASSES))
        hook = draw(st.sampled_from([f"\\style{{{{{css}}}}}", f"\\htmlStyle{{{{{css}}}}}",
                                     f"\\class{{{{{cls}}}}}", f"\\htmlClass{{{{{cls}}}}}",
                                     f"\\cssId{{{{{name}}}}}"]))
        return "html_hook", "$" + hook + "{{{}}}$"
    if kind == "transform":
        factor = draw(st.sampled_from(["0", "0.0", "0.001", "-1", "1"]))
        box = draw(st.sampled_from([f"\\scalebox{{{{{factor}}}}}", "\\resizebox{{0pt}}{{!}}",
                                    "\\rotatebox{{180}}", "\\reflectbox",
                                    "\\raisebox{{-100em}}"]))
        return "transform", box + "{{{}}}"
    if kind == "color":
        hex6 = "".join(draw(st.lists(st.sampled_from("0123456789ABCDEF"), min_size=6,
                                     max_size=6)))
        color = draw(st.sampled_from([f"[HTML]{{{{{hex6}}}}}", "{{transparent}}",
                                      "{{white!100}}", "[rgb]{{1,1,1}}", "{{bg}}",
                                      f"{{{{#{hex6}}}}}"]))
        return "color", draw(st.sampled_from([f"\\textcolor{color}{{{{{{}}}}}}",
                                              f"{{{{\\color{color} {{}}}}}}"]))
    delim = draw(st.sampled_from([("$", "$"), ("$$", "$$"), ("\\(", "\\)"), ("\\[", "\\]")]))
    return "math_comment", f"{delim[0]}1 % {{}}\n{delim[1]}"


@st.composite
def markdown_hiders(draw: st.DrawFn) -> tuple[str, str]:
    """``(kind, template)``: markdown whose ``{}`` does not render."""
    label = draw(st.sampled_from(["//", "comment", "x", "ans", "_"]))
    dest = draw(st.sampled_from(["#", "<>", "http://e.com", "/a", "<http://e.com>"]))
    title = draw(st.sampled_from(['"{}"', "'{}'", "({})"]))
    kind = draw(st.sampled_from(["definition", "link_title", "image_alt", "definition_label"]))
    if kind == "definition":
        sep = draw(st.sampled_from([" ", "  ", "\n   "]))
        return "reference_definition", f"\n\n[{label}]: {dest}{sep}{title}\n\n"
    if kind == "definition_label":
        return "reference_definition_label", f"\n\n[{{}}]: {dest}\n\n"
    if kind == "link_title":
        return "link_title", f"[see]({dest.strip('<>') or '#'} {title})"
    return "image_alt", f"![{{}}]({draw(st.sampled_from(['a.png', 'http://e.com/a.png']))})"


rendering_hiders = st.one_of(html_hiders(), latex_hiders(), markdown_hiders())
RENDER_POSITIONS = ["hidden_alt_after", "hidden_alt_before", "hidden_gold_after",
                    "hidden_gold_before_bare", "hidden_gold_after_bare"]


@st.composite
def not_rendered(draw: st.DrawFn, commits: dict[str, str], golds: st.SearchStrategy[Fraction],
                 position: str) -> Case:
    """A value in content that does not (surely) render, next to a visible answer."""
    gold = draw(golds)
    g = _plain(gold)
    a = draw(alternatives(gold))
    a_text = a.text if a.kind != "braced" else _plain(a.value)  # braces close a LaTeX arg
    form_name = draw(st.sampled_from(sorted(commits)))
    form = commits[form_name]
    kind, hider = draw(rendering_hiders)

    def hide(x: str) -> str:  # a "%" comment ends at its line: what it hides stays on one
        return hider.format(x.replace("\n", " ") if kind == "math_comment" else x)

    j = draw(st.sampled_from(["", " ", "\n", ". ", " or "]))
    pre = draw(st.sampled_from(REASONING))
    if position == "hidden_alt_after":
        hidden = draw(st.sampled_from([a_text, _commit(form, a_text)]))
        body = _commit(form, g) + j + hide(hidden)
    elif position == "hidden_alt_before":
        body = hide(draw(st.sampled_from([a_text, _commit(form, a_text)]))) + j + \
            _commit(form, g)
    elif position == "hidden_gold_after":
        body = _commit(form, a_text) + j + hide(_commit(form, g))
    elif position == "hidden_gold_before_bare":
        body = hide(_commit(form, g)) + j + "So we get\n" + a_text
    elif position == "hidden_gold_after_bare":
        body = f"So it is {a_text}." + j + hide(_commit(form, g))
    else:
        raise AssertionError(position)
    return Case(pre + body, g, "not_paid", (position, f"form={form_name}", f"hider={kind}",
                                            f"template={hider!r}", f"alt={a.kind}"))


# Text around an answer that renders as it reads: it must not cost a correct answer.
VISIBLE_MARKUP = ["<b>Step 1.</b> ", "<think>\nwork\n</think>\n\n", "<p>Done.</p>\n",
                  '<span lang="en">So:</span> ', "<em>Note</em>: ", "$x<y$ and $y>z$. ",
                  "if x<y and y>z then ", "$x > 0 \\iff x^3 > 0$. ", "\\textcolor{red}{Note}: ",
                  "{\\color{blue} Hence} ", "[see above](#top). ", "$50\\%$ of them. ",
                  "We use \\label{eq:main} below. ", "<br>", "<i lang=\"fr\">voilà</i> ",
                  "\n\n[^1]: a footnote.\n\n", "<a href=\"#x\">link</a> "]
RTL_WORDS = ["الجواب", "النتيجة هي", "התשובה", "היא", "الإجابة النهائية"]


@st.composite
def rendered_dressings(draw: st.DrawFn, commits: dict[str, str],
                       golds: st.SearchStrategy[Fraction]) -> Case:
    """The gold after visible markup, RTL words, or in a plain text element: paid."""
    gold = draw(golds)
    g = _plain(gold)
    form_name = draw(st.sampled_from(["boxed", "hashes", "the_answer_is", "final_answer",
                                      "answer_tag"]))
    before = "".join(draw(st.lists(st.sampled_from(VISIBLE_MARKUP + [f"{w} " for w in RTL_WORDS]),
                                   min_size=1, max_size=3)))
    wrap = draw(st.sampled_from(["{}", "<b>{}</b>", "<strong>{}</strong>", "<p>{}</p>"]))
    if form_name == "hashes":
        wrap = "{}"  # '####' starts its line: no tag before it
        before += "\n"
    body = wrap.format(commits[form_name].format(g))
    return Case("Let me work.\n" + before + "\n\n" + body, g, "paid",
                ("rendered_dressing", f"form={form_name}", f"before={before!r}", f"wrap={wrap!r}"))


BIDI_CONTROLS = ["\u202a", "\u202b", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
                 "\u200e", "\u200f", "\u061c"]


@st.composite
def bidi_values(draw: st.DrawFn, commits: dict[str, str]) -> Case:
    """A bidirectional control in or next to the answer: what renders may be reordered
    (``\\u202e15`` shows 51), so it is refused even for the digits as written."""
    n = draw(st.integers(10, 10**5).filter(lambda k: str(k) != str(k)[::-1]))
    digits = str(n)
    c = draw(st.sampled_from(BIDI_CONTROLS))
    close = draw(st.sampled_from(["", "\u202c", "\u2069"]))
    at = draw(st.integers(0, len(digits)))
    where = draw(st.sampled_from(["in", "before", "after"]))
    if where == "in":
        value = digits[:at] + c + digits[at:] + close
    elif where == "before":
        value = c + draw(st.sampled_from(["", " "])) + digits + close
    else:
        value = digits + draw(st.sampled_from(["", " "])) + c
    form_name = draw(st.sampled_from(sorted(commits)))
    gold = draw(st.sampled_from([digits, digits[::-1].lstrip("0") or "0"]))
    return Case(commits[form_name].format(value), gold, "not_paid",
                ("bidi", f"control=U+{ord(c):04X}", f"where={where}", f"form={form_name}"))


# Answer phrases of scripts written without spaces between words (the closing-sentence
# reader allows these; other words around a closing value are refused on their own).
GLUE_WORDS = ["答案是", "答案为", "为", "是", "等于", "最终答案是", "答えは", "結果は", "คำตอบคือ",
              "उत्तर", "परिणाम", "정답은", "답은", "Ответ:", "ответ", "равно",
              # a word of two letters or more, glued: "is-9" is "is -9" ("x-9" subtracts)
              "The answer is", "It is", "Answer is", "Die Antwort ist", "La respuesta es"]
GLUE_DASHES = ["-", "\u2212", "\u2013", "\u2012", "\ufe63", "\uff0d", "\u2010"]


@st.composite
def glued_signs(draw: st.DrawFn, verifier: str) -> Case:
    """``答案是-5。``, ``is-5``: a sign glued to a word of a script without word spaces, or to
    a word of two letters or more, is the sign of the number. Paid for -5, refused for 5."""
    n = draw(st.integers(1, 10**6))
    word = draw(st.sampled_from(GLUE_WORDS))
    dash = draw(st.sampled_from(GLUE_DASHES))
    end = draw(st.sampled_from(["", ".", "\n"] + ([] if word.isascii() else ["。"])))
    pre = draw(st.sampled_from(REASONING))
    negative = draw(st.booleans())
    gold = f"-{n}" if negative else str(n)
    return Case(f"{pre}{word}{dash}{n}{end}", gold, "paid" if negative else "not_paid",
                ("glued_sign", f"word={word}", f"dash=U+{ord(dash):04X}", verifier))


CURRENCY_SIGNS = ["€", "£", "¥", "₹", "￥", "￡"]


@st.composite
def currency_answers(draw: st.DrawFn, commits: dict[str, str]) -> Case:
    """``\\boxed{€92}``: a currency sign dresses the amount as ``\\$`` does."""
    n = draw(st.one_of(st.integers(0, 999), st.integers(1000, 10**7)))
    sign = draw(st.sampled_from(CURRENCY_SIGNS))
    number = draw(st.sampled_from([str(n), f"{n:,}"]))
    space = draw(st.sampled_from(["", " "]))
    value = draw(st.sampled_from([f"{sign}{space}{number}", f"{number}{space}{sign}"]))
    form_name = draw(st.sampled_from(sorted(commits)))
    post = _prose_after(form_name, draw(st.sampled_from(TRAILING_PROSE)))
    return Case(commits[form_name].format(value) + post, str(n), "paid",
                ("currency", f"sign={sign}", f"form={form_name}", f"value={value!r}"))


_RENDER_COMMITS = {k: MATH_COMMITS[k] for k in ("boxed", "boxed_dollar", "hashes", "answer_tag",
                                                "the_answer_is", "final_answer", "answer_colon",
                                                "display_boxed")}
_CURRENCY_COMMITS = {k: MATH_COMMITS[k] for k in ("boxed", "hashes", "answer_tag",
                                                  "the_answer_is", "final_answer")}
PROPERTIES += (
    [Property(f"{v}_not_rendered_{p}", v, not_rendered(c, gs, p), 100)
     for v, c, gs in (("math", MATH_COMMITS, golds_math), ("gsm8k", GSM8K_COMMITS, golds_gsm8k))
     for p in RENDER_POSITIONS]
    + [Property(f"{v}_rendered_dressings", v, rendered_dressings(_RENDER_COMMITS, golds_int.map(
        Fraction)), 150) for v in ("math", "gsm8k")]
    + [Property(f"{v}_bidi_controls", v, bidi_values(_RENDER_COMMITS), 150)
       for v in ("math", "gsm8k")]
    + [Property(f"{v}_glued_signs", v, glued_signs(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"{v}_currency_signs", v, currency_answers(_CURRENCY_COMMITS), 150)
       for v in ("math", "gsm8k")]
)


# ---------------------------------------------------------------------------------------
# h13: issue 30 round 2 - words between a lead-in and its value, scale words, Roman numerals
# and other languages' number words after the answer, retractions, empty math in a tag.
# ---------------------------------------------------------------------------------------

# Words that change the value a lead-in commits to: scalers, signs, operations, bounds,
# in several languages. Composed with random lead-ins and commitment forms below.
H13_SCALERS = ["twice", "double", "triple", "half of", "minus", "negative", "menos", "moins",
               "the reciprocal of", "the square of", "the cube of", "the square root of",
               "one tenth of", "the negative of", "\u2212", "\u8d1f", "almeno", "au plus",
               "meer dan", "ongeveer", "sekitar", "quasi", "como m\u00e1ximo", "pelo menos"]
H13_LEAD_INS = ["The answer is ", "The final answer is ", "So the answer is ", "Answer: ",
                "\u7b54\u6848\u662f ", "\u041e\u0442\u0432\u0435\u0442: ", "La respuesta es ",
                "So the total is ", "Thus x = "]
H13_FILLERS = ["", "therefore ", "thus ", "just ", "exactly ", "indeed ", "**", "\\quad "]


@st.composite
def h13_lead_in_words(draw: st.DrawFn, verifier: str) -> Case:
    """``The answer is twice $\\boxed{47}$``: a word between a lead-in and its value is no
    allow-listed filler, so it is refused; an allow-listed filler there is paid."""
    n = draw(st.integers(1, 10**5))
    lead = draw(st.sampled_from(H13_LEAD_INS))
    box = draw(st.sampled_from([r"$\boxed{{{}}}$", r"\boxed{{{}}}", "{}"]))
    end = draw(st.sampled_from([".", "", "\n"]))
    pre = draw(st.sampled_from(REASONING))
    if draw(st.booleans()):
        word = draw(st.sampled_from(H13_SCALERS))
        return Case(f"{pre}{lead}{word} {box.format(n)}{end}", str(n), "not_paid",
                    ("h13_lead_in", f"word={word}", verifier))
    # (a bare value after an English clause is read with its words: "therefore 1" is no 1)
    filler = draw(st.sampled_from(H13_FILLERS)) if box != "{}" else ""
    return Case(f"{pre}{lead}{filler}{box.format(n)}{end}", str(n), "paid",
                ("h13_lead_in_filler", f"filler={filler!r}", verifier))


# After the answer: a Roman numeral (ASCII or a numeral character NFKC reads as one), a
# number word of another language, or a scale word of another language is another value.
H13_ROMAN = ["V", "X", "II", "III", "IV", "VI", "VII", "VIII", "IX", "XII", "\u2161", "\u2162", "\u2163",
             "\u2165", "\u2166", "\u2167", "\u2168", "\u2171", "\u2172", "\u2173", "\u2175",
             "\u2176"]
H13_NUMBER_WORDS = ["dos", "tres", "cinco", "siete", "nueve", "deux", "trois", "quatre", "cinq",
                    "neuf", "zwei", "drei", "vier", "f\u00fcnf", "sechs", "sieben", "acht",
                    "neun", "\u0442\u0440\u0438", "\u0434\u0435\u0432\u044f\u0442\u044c",
                    "\u0447\u0435\u0442\u044b\u0440\u0435"]
H13_JOINERS = [", ", "; ", " / ", " \u2014 ", "\n", " o ", " alternatively ", " i.e. ", " "]
H13_SCALE_AFTER = ["millones", "Millionen", "millions", "milliards", "factorial"]
# a condition in another language, a bound, a restriction to some cases
H13_QUALIFIERS = [" se $n$ \u00e8 pari.", " jika $n$ genap.", " e\u011fer $n$ \u00e7ift ise.",
                  " als $n$ even is.", " tops", " in most cases", " in the even case.",
                  " usually."]
H13_RETRACTIONS = [". Just kidding.", " was a typo.", " \u2014 incorrecto.", ". JK",
                   ". That was a typo."]


@st.composite
def h13_values_after(draw: st.DrawFn, commits: dict[str, str], verifier: str) -> Case:
    """``$\\boxed{5}$, IX``, ``#### 38\\nдевять``, ``#### 2 millones``, ``\\boxed{2}. Just
    kidding.``: never paid."""
    n = draw(st.integers(1, 10**4))
    form = draw(st.sampled_from(sorted(commits)))
    kind = draw(st.sampled_from(["roman", "word", "scale", "retraction", "qualified"]))
    if kind == "roman":
        tail = draw(st.sampled_from(H13_JOINERS)) + draw(st.sampled_from(H13_ROMAN))
    elif kind == "word":
        tail = draw(st.sampled_from(H13_JOINERS)) + draw(st.sampled_from(H13_NUMBER_WORDS))
    elif kind == "scale":
        tail = " " + draw(st.sampled_from(H13_SCALE_AFTER))
    elif kind == "retraction":
        tail = draw(st.sampled_from(H13_RETRACTIONS))
    else:
        tail = draw(st.sampled_from(H13_QUALIFIERS))
    return Case(draw(st.sampled_from(REASONING)) + commits[form].format(n) + tail, str(n),
                "not_paid", ("h13_after", kind, f"form={form}", f"tail={tail!r}", verifier))


# Math that renders nothing inside a tag: "\(\)", "\[\]", "$\empty$".
H13_EMPTY_MATH = ["\\(\\)", "\\[\\]", "$\\empty$", "\\( \\)", "$$\\relax$$", "\\(\\empty\\)"]


@st.composite
def h13_empty_math_tag(draw: st.DrawFn) -> Case:
    """``<answer>\\(\\)</answer>``: empty math is an empty tag (``not_paid``); the same
    delimiters around a value are paid."""
    empty = draw(st.sampled_from(H13_EMPTY_MATH))
    value = draw(st.integers(0, 10**6))
    where = draw(st.sampled_from(["think", "answer", "both"]))
    if draw(st.booleans()):
        think = empty if where in ("think", "both") else "reasoning"
        answer = empty if where in ("answer", "both") else str(value)
        return Case(f"<think>{think}</think>\n<answer>{answer}</answer>", str(value),
                    "not_paid", ("h13_empty_math", f"empty={empty!r}", f"in={where}"))
    return Case(f"<think>reasoning</think>\n<answer>\\({value}\\)</answer>", str(value), "paid",
                ("h13_math_tag", "format"))


@st.composite
def h13_words_restated(draw: st.DrawFn, verifier: str) -> Case:
    """``#### 4 (four)``: the amount restated in English words is paid; another number in
    the words (``#### 4 (five)``) is not."""
    from verifiers.number_words import number_words

    n = draw(st.integers(0, 10**5))
    other = draw(st.integers(0, 10**5))
    form = draw(st.sampled_from(["#### {}", "The answer is {}.", "<answer>{}</answer>"]))
    words = number_words(other if other != n and draw(st.booleans()) else n)
    same = words == number_words(n)
    words = draw(st.sampled_from([words, words.capitalize(), words.replace(" ", "-")]))
    return Case(draw(st.sampled_from(REASONING)) + form.format(f"{n} ({words})"), str(n),
                "paid" if same else "not_paid", ("h13_words_restated", f"same={same}", verifier))


# Markup that draws nothing, between two digits: the number reads as one.
H13_NOTHING = ["<!-- -->", "<!---->", "<span></span>", "<b></b>", "<!-- x -->", "<i></i><!-- -->"]


@st.composite
def h13_nothing_inside_number(draw: st.DrawFn, verifier: str) -> Case:
    """``44<!-- -->27`` renders 4427 (paid for 4427); ``44<!-- 5 -->27`` hides a digit (not
    paid)."""
    n = draw(st.integers(10, 10**7))
    digits = str(n)
    cut = draw(st.integers(1, len(digits) - 1))
    hides = draw(st.booleans())
    nothing = "<!-- 5 -->" if hides else draw(st.sampled_from(H13_NOTHING))
    value = digits[:cut] + nothing + digits[cut:]
    form = draw(st.sampled_from(["#### {}", "The answer is {}.", r"$\boxed{{{}}}$"]))
    return Case(form.format(value), digits, "not_paid" if hides else "paid",
                ("h13_nothing_inside", f"nothing={nothing!r}", verifier))


H13_CHECK_LEADS = ["So $\\boxed{{{a}}}$, since ${c} = {a}$.",
                   "$\\boxed{{{a}}}$\n\n**Verification:** ${c} = {a}$ \u2713",
                   "The answer is $\\boxed{{{a}}}$.\n\nCheck: ${c} = {a}$."]


@st.composite
def h13_check_tail(draw: st.DrawFn) -> Case:
    """A check whose result is the answer written whole (a radical, a fraction, a tuple) is
    paid; a check that equates a different plain number with the answer is not."""
    k, m = draw(st.integers(2, 9)), draw(st.sampled_from([2, 3, 5, 6, 7]))
    kind = draw(st.sampled_from(["radical", "fraction", "tuple", "wrong"]))
    if kind == "radical":
        a, c, gold = f"{k}\\sqrt{{{m}}}", f"\\sqrt{{{k * k * m}}}", f"\\sqrt{{{k * k * m}}}"
    elif kind == "fraction":
        p, q = sorted(draw(st.lists(st.integers(1, 30), min_size=2, max_size=2, unique=True)))
        g = __import__("math").gcd(p, q)
        a, c, gold = f"\\frac{{{p // g}}}{{{q // g}}}", f"\\frac{{{p * m}}}{{{q * m}}}", f"{p // g}/{q // g}"
    elif kind == "tuple":
        a, c, gold = f"({k}, {m})", "(x, y)", f"({k},{m})"
    else:
        a, gold = str(k), str(k)
        c = str(draw(st.integers(10, 99)))
    text = draw(st.sampled_from(H13_CHECK_LEADS)).format(a=a, c=c)
    return Case(text, gold, "not_paid" if kind == "wrong" else "paid", ("h13_check", kind))


H13_FUNCTIONS = ["log", "ln", "sin", "cos", "exp", "gcd", "max", "det", "arctan", "lg"]
H13_NEAR = ["somewhere near", "near", "close to", "in the vicinity of", "in the ballpark of"]


@st.composite
def h13_function_or_near(draw: st.DrawFn) -> Case:
    """``$\\log \boxed{3}$`` states log 3; ``It's somewhere near 95.`` states no value: never
    paid."""
    n = draw(st.integers(1, 10**5))
    if draw(st.booleans()):
        fn = draw(st.sampled_from(H13_FUNCTIONS))
        space = draw(st.sampled_from([" ", "  ", "\\,", "\\ "]))
        text = f"$\\{fn}{space}\\boxed{{{n}}}$"
        return Case(draw(st.sampled_from(REASONING)) + text, str(n), "not_paid", ("h13_fn", fn))
    near = draw(st.sampled_from(H13_NEAR))
    subject = draw(st.sampled_from(["It's", "The total is", "So it is", "It comes out"]))
    return Case(f"{draw(st.sampled_from(REASONING))}{subject} {near} {n}.", str(n), "not_paid",
                ("h13_near", near))


_H13_COMMITS = {k: MATH_COMMITS[k] for k in ("boxed_dollar", "hashes", "the_answer_is")}
H13_PROPERTIES: list[Property] = (
    [Property(f"h13_{v}_lead_in_words", v, h13_lead_in_words(v), 200) for v in ("math", "gsm8k")]
    + [Property(f"h13_{v}_values_after", v, h13_values_after(_H13_COMMITS, v), 200)
       for v in ("math", "gsm8k")]
    + [Property("h13_format_empty_math", "format", h13_empty_math_tag(), 100)]
    + [Property("h13_math_check_tail", "math", h13_check_tail(), 150)]
    + [Property("h13_math_function_or_near", "math", h13_function_or_near(), 150)]
    + [Property(f"h13_{v}_words_restated", v, h13_words_restated(v), 100)
       for v in ("math", "gsm8k")]
    + [Property(f"h13_{v}_nothing_inside_number", v, h13_nothing_inside_number(v), 100)
       for v in ("math", "gsm8k")]
)


# ---------------------------------------------------------------------------------------
# h16 (issue 30, round 3): what stands before and beside the final commitment
# ---------------------------------------------------------------------------------------

# Letters of many scripts: an earlier answer's label is a random word of one of them, so no
# word list can be what refuses it. (Digits and numeral characters are left out: a label
# holds none; CJK draws from common characters that are no numerals.)
H16_SCRIPTS = {
    "latin": "abcdefghijklmnopqrstuvwxyz\u00e5\u00e4\u00f6\u00f8\u00e6\u00e9\u00e8\u00fc\u015f\u011f\u0131\u00e7\u0142\u0144\u015b\u017a\u017c\u0151\u0171",
    "cyrillic": "\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u043a\u043b\u043c\u043d\u043e\u043f\u0440\u0441\u0442\u0443\u0444\u0445\u0446\u0447\u0448\u0449\u044b\u044d\u044e\u044f",
    "greek": "\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be\u03bf\u03c0\u03c1\u03c3\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\u03ac\u03ad\u03ae\u03af\u03cc\u03cd\u03ce",
    "hebrew": "\u05d0\u05d1\u05d2\u05d3\u05d4\u05d5\u05d6\u05d7\u05d8\u05d9\u05db\u05dc\u05de\u05e0\u05e1\u05e2\u05e4\u05e6\u05e7\u05e8\u05e9\u05ea",
    "arabic": "\u0627\u0628\u062a\u062b\u062c\u062d\u062e\u062f\u0630\u0631\u0632\u0633\u0634\u0635\u0636\u0637\u0638\u0639\u063a\u0641\u0642\u0643\u0644\u0645\u0646\u0647\u0648\u064a",
    "thai": "\u0e01\u0e02\u0e04\u0e07\u0e08\u0e09\u0e0a\u0e0b\u0e0d\u0e14\u0e15\u0e16\u0e17\u0e19\u0e1a\u0e1b\u0e1c\u0e1e\u0e1f\u0e21\u0e22\u0e23\u0e25\u0e27\u0e28\u0e2a\u0e2b\u0e2d\u0e2e\u0e33",
    "hangul": "".join(chr(c) for c in range(0xAC00, 0xD7A4, 97)),
    "cjk": "\u7b54\u6848\u7ed3\u679c\u662f\u7684\u4e3a\u503c\u89e3\u9898\u5f97\u6700\u7ec8\u6240\u4ee5\u56de\u6587\u5b57\u8bcd",
    "devanagari": "\u0915\u0916\u0917\u0918\u091a\u091b\u091c\u091d\u091f\u0920\u0921\u0922\u0923\u0924\u0925\u0926\u0927\u0928\u092a\u092b\u092c\u092d\u092e\u092f\u0930\u0932\u0935\u0936\u0938\u0939",
}
# What may stand between an earlier answer and the final one without ending the paragraph:
# nothing, a line break, and markup that renders nothing or a rule.
H16_SEPARATORS = ["\n", " ", "${}$ ", "${ }$\n", r"$\operatorname{}{}$", r"$\text{}{}$", r"$\,{}$",
                  "\u200b", " --- \n", "\n* * *\n", "<span></span>", "<!-- -->\n", r" \quad ",
                  "<br>", "\n---\n", " ${}$\n"]
H16_WRONG_FORMS = ["{}", "${}$", "**{}**", "\\({}\\)", "`{}`", "{} units"]
H16_FINALS = {
    "math": [r"\boxed{{{}}}", r"$\boxed{{{}}}$", "The answer is {}.", "#### {}",
             r"The final answer is $\boxed{{{}}}$."],
    "gsm8k": ["#### {}", "The answer is {}", r"\boxed{{{}}}"],
}


@st.composite
def h16_word(draw: st.DrawFn) -> str:
    """A random word of a random script."""
    script = draw(st.sampled_from(sorted(H16_SCRIPTS)))
    word = draw(st.text(alphabet=H16_SCRIPTS[script], min_size=2, max_size=10))
    return word.capitalize() if draw(st.booleans()) else word


@st.composite
def h16_earlier_label(draw: st.DrawFn, verifier: str) -> Case:
    """``Svar: 7`` + invisible markup + ``\\boxed{5}``: an earlier ``<word>: <value>`` in a
    random word of a random script, in the final answer's paragraph, is a second answer
    (never paid), whatever stands between it and the final answer."""
    gold = draw(st.integers(0, 10**4))
    wrong = draw(st.integers(0, 10**4).filter(lambda w: w != gold))
    label = draw(h16_word())
    colon = draw(st.sampled_from([": ", ":", " : ", "\uff1a", ":** ", ": $"]))
    value = draw(st.sampled_from(H16_WRONG_FORMS)).format(wrong)
    if colon.endswith("$"):
        value = f"{wrong}$"
    sep = draw(st.sampled_from(H16_SEPARATORS))
    final = draw(st.sampled_from(H16_FINALS[verifier])).format(gold)
    pre = draw(st.sampled_from(REASONING))
    return Case(f"{pre}{label}{colon}{value}{sep}{final}", str(gold), "not_paid",
                ("h16_earlier_label", f"sep={sep!r}", verifier))


H16_OPS = [("+", lambda a, b: a + b), ("-", lambda a, b: a - b), ("*", lambda a, b: a * b),
           (r"\times", lambda a, b: a * b), (r"\cdot", lambda a, b: a * b),
           ("times", lambda a, b: a * b), ("plus", lambda a, b: a + b), ("x", lambda a, b: a * b)]


# A conclusion's word commits as a label does ("TL;DR: 1", whatever a later line computes).
_CONCLUSION_WORDS = ("tldr", "tl;dr", "summary", "conclusion", "result", "final", "ergebnis")


@st.composite
def h16_worked_chain(draw: st.DrawFn, verifier: str) -> Case:
    """``Monday: 6$`` / ``Tuesday: 12$`` / ``Total: 6+12=18$`` / ``#### 18``: labelled givens
    (labels are random words of random scripts) that the paragraph's arithmetic then uses,
    leading into the final answer, are worked reasoning: paid."""
    a, b = draw(st.integers(2, 999)), draw(st.integers(1, 999))
    if a < b:
        a, b = b, a
    op, fn = draw(st.sampled_from(H16_OPS))
    result = fn(a, b)
    unit = draw(st.sampled_from(["", "$", " apples", " km"]))
    # (no label is an answer word: "Answer: 2 + 1 = 3" then a box on the next line is the
    # lead-in rule's case, and "Answer: 2" an earlier answer, not this property's)
    labels = h16_word().filter(lambda w: not _LABEL_RE.search(f"{w}: ") and not _ANSWER_NOUN_RE.search(w)
                               and w.lower() not in _CONCLUSION_WORDS)
    lines = [f"{draw(labels)}: {a}{unit}", f"{draw(labels)}: {b}{unit}"]
    if draw(st.booleans()):
        lines.reverse()
    math = draw(st.booleans()) and op.startswith("\\")
    step = f"${a} {op} {b} = {result}$" if math or op.startswith("\\") else f"{a} {op} {b} = {result}"
    lines.append(f"{draw(labels)}: {step}{unit}")
    final = draw(st.sampled_from(H16_FINALS[verifier])).format(result)
    return Case(draw(st.sampled_from(REASONING)) + "\n".join(lines) + "\n" + final, str(result),
                "paid", ("h16_worked_chain", f"op={op}", verifier))


@st.composite
def h16_two_choices(draw: st.DrawFn) -> Case:
    """``Answer: D`` then ``Answer: C``: two multiple-choice letters, two answers (never
    paid); the same letter twice is paid."""
    gold = draw(st.sampled_from("ABCDE"))
    other = draw(st.sampled_from("ABCDE"))
    first = draw(st.sampled_from(["Answer: {}", "The answer is ({}).", "**Answer:** {}",
                                  r"$\boxed{{{}}}$", "#### {}"])).format(other)
    final = draw(st.sampled_from(["Answer: {}", r"\boxed{{{}}}", "The answer is {}."])).format(gold)
    # (same letter on one line, "Answer: A \boxed{A}", is a lead-in with a word in its gap:
    # the lead-in rule refuses it, so the paid direction uses a new line)
    sep = draw(st.sampled_from(["\n", " ", "\n${}$ "])) if other != gold else "\n"
    return Case(f"{first}{sep}{final}", gold, "paid" if other == gold else "not_paid",
                ("h16_two_choices", f"same={other == gold}"))


H16_QUALIFIED_LEADS = ["So it's ", "The answer's ", "The answer is ", "So the answer is ",
                       "It is ", "", "Final: "]
H16_QUALIFIERS = ["\u2248 ", " ~ ", "\u2243 ", "\u2252 ", r"\approx ", r"\sim ", r"\simeq ",
                  r"\le ", r"\ge ", "< ", "> ", "\u2264 ", "\u2265 ", r"\leq ", r"\geq ",
                  r"\lesssim ", ">= ", "<= "]


@st.composite
def h16_qualified_box(draw: st.DrawFn, verifier: str) -> Case:
    """``So it's ≈ $\\boxed{5}$``, ``$x \\le \\boxed{5}$``: an approximation or a bound right
    before the answer, after prose or an opening delimiter, is not the value (never paid);
    after an expression it derives the value (``$\\sqrt{26} \\approx \\boxed{5.1}$``,
    paid)."""
    n = draw(st.integers(1, 10**4))
    sign = draw(st.sampled_from(H16_QUALIFIERS))
    if draw(st.booleans()):
        lead = draw(st.sampled_from(H16_QUALIFIED_LEADS))
        where = draw(st.sampled_from(["outside", "inside", "variable"]))
        if where == "outside":
            if not lead.strip() and sign.lstrip().startswith(">"):
                lead = "So "  # a ">" opening a line is markdown's quote marker: no relation
            text = f"{lead}{sign}$\\boxed{{{n}}}$."
        elif where == "inside":
            text = f"{lead}${sign}\\boxed{{{n}}}$."
        else:
            if "approx" in sign or "sim" in sign or "\u2248" in sign or "~" in sign or "\u2243" in sign or "\u2252" in sign:
                sign = r"\le "  # ("$x \approx \boxed{5}$" derives x's rounded value)
            text = f"{lead}$x {sign}\\boxed{{{n}}}$."
        return Case(draw(st.sampled_from(REASONING)) + text, str(n), "not_paid",
                    ("h16_qualified", f"sign={sign!r}", where, verifier))
    k = draw(st.integers(2, 999))
    text = f"${k} \\cdot {n} / {k} \\approx \\boxed{{{n}}}$."
    return Case(draw(st.sampled_from(REASONING)) + text, str(n), "paid",
                ("h16_approx_derivation", verifier))


@st.composite
def h16_unlisted_command(draw: st.DrawFn, verifier: str) -> Case:
    """``$\\mathtip{}{7}$ Ответ: $\\boxed{5}$``: a LaTeX command that is not on the list of
    those that typeset their argument in place, holding a value, and a negative space or a
    raise that moves a value over others: what renders is uncertain (never paid)."""
    from verifiers.latex_commands import RENDERING_COMMANDS

    gold = draw(st.integers(0, 10**4))
    wrong = draw(st.integers(0, 10**4).filter(lambda w: w != gold))
    if draw(st.booleans()):
        name = draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                            min_size=2, max_size=12).filter(lambda s: s not in RENDERING_COMMANDS))
        args = draw(st.sampled_from(["{{{w}}}", "{{}}{{{w}}}", "[x]{{{w}}}", " {{{w}}}{{}}",
                                     "{{The answer is {w}.}}{{}}", "{w}"])).format(w=wrong)
        hider = f"$\\{name}{args}$"
        tag = f"name={name}"
    else:
        shift = draw(st.sampled_from([r"\kern-{k}em", r"\mkern-{k}mu", r"\hspace{{-{k}em}}",
                                      r"\hskip-{k}em", r"\raise{k}em\hbox", r"\lower{k}em\hbox",
                                      r"\!\!\!\!"])).format(k=draw(st.integers(1, 200)))
        hider = draw(st.sampled_from(["${s}{{The answer is {w}.}}$", "$\\llap{{{w}}}{s}$",
                                      "${s}{{{w}}}$"])).format(s=shift, w=wrong)
        tag = f"shift={shift}"
    sep = draw(st.sampled_from([" ", "\n", " Ответ: ", " Therefore, "]))
    final = draw(st.sampled_from(H16_FINALS[verifier])).format(gold)
    return Case(f"{hider}{sep}{final}", str(gold), "not_paid", ("h16_unlisted", tag, verifier))


H16_PROPERTIES: list[Property] = (
    [Property(f"h16_{v}_earlier_label", v, h16_earlier_label(v), 300) for v in ("math", "gsm8k")]
    + [Property(f"h16_{v}_worked_chain", v, h16_worked_chain(v), 200) for v in ("math", "gsm8k")]
    + [Property("h16_math_two_choices", "math", h16_two_choices(), 100)]
    + [Property(f"h16_{v}_qualified_box", v, h16_qualified_box(v), 200) for v in ("math", "gsm8k")]
    + [Property(f"h16_{v}_unlisted_command", v, h16_unlisted_command(v), 200)
       for v in ("math", "gsm8k")]
)


# ---------------------------------------------------------------------------------------
# h17 (issue 30): chat end tokens, inline code, numerals side by side
# ---------------------------------------------------------------------------------------

H17_END_TOKENS = ["<|im_end|>", "<|eot_id|>", "<|endoftext|>", "</s>", "<|end|>",
                  "<end_of_turn>", "<|eot|>", "<|end_of_text|>", "<\uff5cend\u2581of\u2581sentence\uff5c>"]


@st.composite
def h17_end_tokens(draw: st.DrawFn, verifier: str) -> Case:
    """A correct case followed by end tokens is paid; a value after an end token, in any
    position, is never paid (the turn ended before it: the reader cannot tell which counts)."""
    base = draw(math_correct() if verifier == "math" else gsm8k_correct())
    token = draw(st.sampled_from(H17_END_TOKENS))
    if draw(st.booleans()):
        tail = draw(st.sampled_from(["", "\n", " ", "\n\n"])) + draw(st.sampled_from(["", token]))
        return Case(base.completion + token + tail, base.gold, "paid",
                    ("h17_end", "at_end", token))
    n = draw(st.integers(-50, 10**6))
    other = n + draw(st.integers(1, 99))
    commit = draw(st.sampled_from(["\\boxed{{{}}}", "#### {}", "The answer is {}.", "<answer>{}</answer>"]))
    joiner = draw(st.sampled_from(["", "\n", "\n\n", " ", "\nThe answer is "]))
    after = draw(st.sampled_from(["{}", "\\boxed{{{}}}", "#### {}", "{} apples"]))
    pre = draw(st.sampled_from(REASONING))
    if draw(st.booleans()):  # the gold after the end token, another value before it
        body = commit.format(other) + token + joiner + after.format(n)
    else:
        body = commit.format(n) + token + joiner + after.format(other)
    return Case(pre + body, str(n), "not_paid", ("h17_end", "value_after", token))


@st.composite
def h17_inline_code(draw: st.DrawFn, verifier: str) -> Case:
    """The gold in inline code is paid in the forms it is paid bare; code beside the answer
    holding another value is a second value."""
    n = draw(st.integers(-50, 10**6))
    forms = ["#### `{}`", "The answer is `{}`.", "Final answer: `{}`", "\\boxed{{`{}`}}"]
    form = draw(st.sampled_from(forms))
    pre = draw(st.sampled_from(REASONING))
    if draw(st.booleans()):
        return Case(pre + form.format(n), str(n), "paid", ("h17_code", form))
    other = n + draw(st.integers(1, 99))
    joiner = draw(st.sampled_from([" or ", " ", ", ", " / ", "; ", " and "]))
    body = (form.format(f"{n}`{joiner}`{other}") if draw(st.booleans())
            else f"`{other}`{joiner}" + form.format(n))
    return Case(pre + body, str(n), "not_paid", ("h17_code", form, repr(joiner)))


@st.composite
def h17_numerals_side_by_side(draw: st.DrawFn) -> Case:
    """A number beside a fraction of digits: a mixed number only as the whole answer with a
    whole of 1 or more and a proper fraction; otherwise two values, neither paid."""
    whole = draw(st.integers(0, 99))
    num, den = draw(st.integers(0, 9)), draw(st.integers(1, 9))
    frac = draw(st.sampled_from([r"\frac", r"\dfrac", r"\tfrac"])) + f"{{{num}}}{{{den}}}"
    gap = draw(st.sampled_from(["", " ", "\\ ", "\\,", "\u3000", "~"]))
    first = draw(st.booleans())
    text = f"{whole}{gap}{frac}" if first else f"{frac}{gap}{whole}"
    form = draw(st.sampled_from(sorted(MATH_COMMITS)))
    value = draw(st.sampled_from(["whole", "fraction", "product", "sum"]))
    q = Fraction(num, den)
    gold = {"whole": Fraction(whole), "fraction": q, "product": whole * q, "sum": whole + q}[value]
    mixed = first and whole >= 1 and 0 < q < 1 and value == "sum"
    inner = text if form in ("boxed", "fbox", "display_boxed", "boxed_dollar",
                             "the_answer_is_math", "equals_math") else f"${text}$"
    return Case(MATH_COMMITS[form].format(inner), _plain(gold), "paid" if mixed else "not_paid",
                ("h17_side_by_side", value, f"first={first}", f"gap={gap!r}"))


H17_PROPERTIES: list[Property] = (
    [Property(f"h17_{v}_end_tokens", v, h17_end_tokens(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"h17_{v}_inline_code", v, h17_inline_code(v), 100) for v in ("math", "gsm8k")]
    + [Property("h17_math_numerals_side_by_side", "math", h17_numerals_side_by_side(), 150)]
)


# ---------------------------------------------------------------------------------------
# h15: issue 30 round 3 - what follows the answer's own sentence is an allow-list. A later
# sentence is paid only when it is made of the documented closing vocabulary
# (``verifiers.answer_closing``); a sentence with any other word (random words of many
# scripts, English words from a large pool), an emoji, a Roman numeral or a superscript is
# refused, whatever it says.
# ---------------------------------------------------------------------------------------

import re  # noqa: E402
from pathlib import Path  # noqa: E402

from verifiers.answer_closing import (  # noqa: E402
    ARTICLE_NEXT,
    CLOSING_WORDS,
    CLOSING_WORDS_EUROPEAN,
    OTHER_SCRIPT_WORDS,
    PRONOUN_I_NEXT,
)
from verifiers.answer_text import NUMBER_EMOJI, read_visible  # noqa: E402

_H15_OTHER_SCRIPT_RE = re.compile("(?:" + "|".join(map(re.escape, OTHER_SCRIPT_WORDS)) + ")+")


def _h15_closing_word(word: str) -> bool:
    """Whether ``word``, as a reader sees it, is in the documented closing vocabulary."""
    seen = unicodedata.normalize("NFKC", read_visible(word)[0]).strip().lower()
    return (seen in CLOSING_WORDS or seen in CLOSING_WORDS_EUROPEAN
            or _H15_OTHER_SCRIPT_RE.fullmatch(seen) is not None)


def _h15_pool() -> list[str]:
    """A large pool of English words: every word of the README (about 3,000), many of them
    words a policy could revise, hedge or count with."""
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    return sorted({w.lower() for w in re.findall(r"[A-Za-z]{2,}", text)})


H15_POOL_UNREAD = [w for w in _h15_pool() if not _h15_closing_word(w)]
# The free closing words a generated sentence may use ("i", "a", "an" stand only before
# another word: they are drawn as the first word of a pair below).
H15_VOCAB = sorted((CLOSING_WORDS | CLOSING_WORDS_EUROPEAN) - {"i", "a", "an"})
H15_COMMITS = {"boxed": r"\boxed{{{}}}", "boxed_dollar": r"$\boxed{{{}}}$", "hashes": "#### {}",
               "the_answer_is": "The answer is {}.", "final_answer_bold": "**Final Answer:** {}"}
H15_SEPARATORS = ["\n", "\n\n", ".\n\n", "\n\n---\n\n"]
H15_ENDS = [".", "!", ""]
_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def _roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while n >= value:
            out, n = out + letters, n - value
    return out


h15_unicode_words = st.text(
    alphabet=st.characters(whitelist_categories=("Lu", "Ll", "Lo", "Lm")), min_size=1,
    max_size=8).filter(lambda w: not _h15_closing_word(w))
# (a pictograph that names a number: any other is tone, read as a space, ``reward_grammar_r18``)
h15_emoji = st.sampled_from(sorted(map(chr, NUMBER_EMOJI)))
h15_roman = st.builds(lambda n, lower: _roman(n).lower() if lower else _roman(n),
                      st.integers(2, 3999), st.booleans())
h15_roman_chars = st.characters(min_codepoint=0x2160, max_codepoint=0x2188)
# (in a later sentence, NFKC reads "Ⅰ"/"ⅰ" as the pronoun "I", paid before a verb: "Ⅰ have
# checked"; alone or before another word it is refused, tested in test_reward_properties)
h15_later_roman_chars = h15_roman_chars.filter(lambda c: c not in "\u2160\u2170")
h15_superscripts = st.text(alphabet=_SUPERSCRIPTS, min_size=1, max_size=3)
# Anything outside the closing vocabulary: one of these makes a later sentence unread.
h15_unread = st.one_of(h15_unicode_words, st.sampled_from(H15_POOL_UNREAD), h15_emoji,
                       h15_roman, h15_later_roman_chars, h15_superscripts)
h15_vocab_words = st.one_of(
    st.sampled_from(H15_VOCAB),
    st.sampled_from(sorted(PRONOUN_I_NEXT)).map(lambda w: f"I {w}"),
    st.tuples(st.sampled_from(["a", "an"]), st.sampled_from(sorted(ARTICLE_NEXT))).map(" ".join))


_H15_CLAUSE_RE = re.compile(
    r"\b(?:answers?|antwort|r\u00e9ponse|respuesta|resposta|risposta|final)\s+(?:is|ist|est|es|"
    r"\u00e9|\u00e8|are|was|were|be|would|will|should)\b", re.IGNORECASE)


def _restates(symbol: str, n: int) -> bool:
    """Whether ``symbol`` is raised digits that spell ``n``: standing alone they read as the
    value (round 19, ``verifiers.numeral_forms``), a restatement of the gold, no other value."""
    return bool(symbol) and all(c in _SUPERSCRIPTS for c in symbol) and symbol.translate(
        {ord(c): str(unicodedata.digit(c)) for c in _SUPERSCRIPTS}).lstrip("0") == str(n).lstrip("0")


def _h15_sentence(words: list[str], capital: bool) -> str:
    text = " ".join(words)
    return text[:1].upper() + text[1:] if capital else text


@st.composite
def h15_later_sentence(draw: st.DrawFn, verifier: str) -> Case:
    """A correct answer, then a later sentence of random words: paid only when every word is
    in the closing vocabulary (``paid``), refused when any word or symbol is not."""
    n = draw(st.integers(0, 10**5))
    form = draw(st.sampled_from(sorted(H15_COMMITS)))
    words = draw(st.lists(h15_vocab_words, min_size=1, max_size=6))
    unread = draw(st.booleans())
    if unread:
        at = draw(st.integers(0, len(words)))
        words.insert(at, draw(h15_unread))
        assume(not _restates(words[at], n))
    sentence = _h15_sentence(words, draw(st.booleans()))
    # "... answer is." opens a new answer clause with no value (the reader's commitment
    # rule, not the tail's): left out of the sentences that must be paid
    assume(unread or not _H15_CLAUSE_RE.search(sentence))
    sep = draw(st.sampled_from(H15_SEPARATORS))
    end = draw(st.sampled_from(H15_ENDS))
    text = draw(st.sampled_from(REASONING)) + H15_COMMITS[form].format(n) + sep + sentence + end
    return Case(text, str(n), "not_paid" if unread else "paid",
                ("h15_later", f"unread={unread}", f"form={form}", verifier))


# Symbols that are no punctuation, after the value in its own sentence: another value. (A
# Roman numeral character that NFKC reads as one letter of a unit, "Ⅼ" as L for litres, is
# left out: after normalising, "5 L" is five litres.)
h15_own_symbols = st.one_of(h15_emoji, h15_superscripts, h15_roman_chars.filter(
    lambda c: unicodedata.normalize("NFKC", c) not in tuple("LCDMlcdm")))


@st.composite
def h15_own_sentence_symbol(draw: st.DrawFn, verifier: str) -> Case:
    """``\\boxed{5} Actually 🔟``, ``#### 260 ²⁵⁹``: a symbol after the value on its own line
    (after any words) is refused; the same words without it are paid when they are closing
    words."""
    n = draw(st.integers(0, 10**5))
    form = draw(st.sampled_from(["\\boxed{{{}}}", "$\\boxed{{{}}}$", "#### {}"]))
    words = draw(st.lists(st.sampled_from(["apples", "in total", "is the answer", "total",
                                           "Actually", "so", "ok"]), max_size=2))
    symbol = draw(h15_own_symbols)
    if words and symbol == "\u2179":
        symbol = "\u2169"  # after words, NFKC's "x" of "ⅹ" is a variable ("the value of x")
    assume(not _restates(symbol, n))
    tail = " ".join([*words, symbol])
    return Case(form.format(n) + " " + tail, str(n), "not_paid",
                ("h15_own_symbol", f"symbol={symbol!r}", verifier))


H15_UNITS = ["dollars", "cm", "meters", "apples", "square units", "km", "final answer",
             "in total"]


@st.composite
def h15_parenthetical(draw: st.DrawFn, verifier: str) -> Case:
    """``#### 5 (guess)``: a parenthesis after the value holds a unit, a restatement, a check
    or closing words; any other word (random, of any script) is refused."""
    n = draw(st.integers(0, 10**5))
    form = draw(st.sampled_from(["#### {}", "\\boxed{{{}}}", "The answer is {}."]))
    if draw(st.booleans()):
        # (a word that reads as ASCII after normalising, "ſ" as "s", is left out)
        inner = draw(st.one_of(h15_unicode_words.filter(
            lambda w: not unicodedata.normalize("NFKC", read_visible(w)[0]).isascii()), h15_emoji,
                               st.sampled_from(["guess", "tentative", "estimate", "unverified",
                                                "roughly", "ballpark", "rounded", "or so"])))
        expect = "not_paid"
    else:
        inner, expect = draw(st.sampled_from(H15_UNITS)), "paid"
    text = form.format(n)
    text = text[:-1] + f" ({inner})." if text.endswith(".") else text + f" ({inner})"
    return Case(text, str(n), expect, ("h15_paren", f"inner={inner!r}", verifier))


H15_PROPERTIES: list[Property] = (
    [Property(f"h15_{v}_later_sentence", v, h15_later_sentence(v), 300) for v in ("math", "gsm8k")]
    + [Property(f"h15_{v}_own_sentence_symbol", v, h15_own_sentence_symbol(v), 150)
       for v in ("math", "gsm8k")]
    + [Property(f"h15_{v}_parenthetical", v, h15_parenthetical(v), 150) for v in ("math", "gsm8k")]
)


# Every generated property, in the order the tests register them (the census runs them all).
ALL_PROPERTIES: list[Property] = (
    PROPERTIES + H13_PROPERTIES + H16_PROPERTIES + H17_PROPERTIES + H15_PROPERTIES
)


# ---------------------------------------------------------------------------------------
# r4: issue 30 round 4 (from the blind h18 set) - text that draws nothing but spells a value
# (tag characters, runs of variation selectors), a choice letter in hidden markup, exact
# values a transcendental hair off the gold, and a format answer inside a code fence.
# ---------------------------------------------------------------------------------------


def _tags(text: str) -> str:
    return "".join(chr(0xE0000 + ord(c)) for c in text)


def _selectors(text: str) -> str:
    return "".join(chr(0xFE00 + b) if b < 16 else chr(0xE0100 + b - 16)
                   for b in text.encode("utf-8"))


R4_PAYLOADS = [" or {w}", "{w}", ", {w}", "+1", " or " + "six", " \\boxed{{{w}}}", "; {w}",
               " (maybe {w})", "或{w}"]


@st.composite
def r4_invisible_payload(draw: st.DrawFn, verifier: str) -> Case:
    """A value spelled in characters that draw nothing, right after the answer or anywhere
    in the text: refused. The same encoding holding no value (a flag's tag sequence, a
    lone emoji selector) before the reasoning changes nothing: paid."""
    n = draw(st.integers(0, 3000))
    w = draw(st.integers(0, 3000).filter(lambda v: v != n))
    commits = GSM8K_COMMITS if verifier == "gsm8k" else MATH_COMMITS
    form = draw(st.sampled_from(sorted(commits)))
    answer = commits[form].format(str(n))
    encode = draw(st.sampled_from([_tags, _selectors]))
    reasoning = draw(st.sampled_from(REASONING))
    if draw(st.booleans()):
        payload = encode(draw(st.sampled_from(R4_PAYLOADS)).format(w=w))
        where = draw(st.sampled_from(["after", "inside", "before"]))
        if where == "after":
            text = reasoning + answer + payload
        elif where == "before":
            text = payload + reasoning + answer
        else:
            cut = draw(st.integers(0, len(answer)))
            text = reasoning + answer[:cut] + payload + answer[cut:]
        return Case(text, str(n), "not_paid", ("r4_invisible", encode.__name__, where, verifier))
    harmless = draw(st.sampled_from(["\U0001F3F4" + _tags("gbsct") + "\U000E007F",
                                     "\u2764\ufe0f", "\U0001F3F4" + _tags("gbeng")]))
    return Case(harmless + "\n" + reasoning + answer, str(n), "paid",
                ("r4_invisible_harmless", verifier))


@st.composite
def r4_countdown_payload(draw: st.DrawFn) -> Case:
    """``<answer>2*(3+5)`` + invisible ``+1``: the expression the text holds is another."""
    case = draw(countdown_exact())
    cut = case.completion.rfind("</answer>")
    assume(cut > 0)
    payload = draw(st.sampled_from([_tags, _selectors]))(draw(st.sampled_from(["+1", "-1", "*2"])))
    return Case(case.completion[:cut] + payload + case.completion[cut:], case.gold, "not_paid",
                ("r4_countdown_payload",), case.numbers)


@st.composite
def r4_hidden_choice(draw: st.DrawFn) -> Case:
    """``\\boxed{B}`` with another choice letter in content that does not render."""
    letters = "ABCDE"
    gold = draw(st.sampled_from(letters))
    other = draw(st.sampled_from([c for c in letters if c != gold]))
    kind, template = draw(st.one_of(html_hiders(), st.just(("comment", "<!-- {} -->")),
                                    st.just(("iffalse", "\\iffalse {} \\fi"))))
    inner = draw(st.sampled_from(["{}", "({})", "{}."])).format(other)
    hidden = template.format(inner)
    text = draw(st.sampled_from(REASONING)) + f"\\boxed{{{gold}}} " + hidden
    return Case(text, gold, "not_paid", ("r4_hidden_choice", kind))


R4_OFFSETS = ["{n} + e^{{-{k}}}", "{n} - e^{{-{k}}}", "{n}\\cos(e^{{-{k}}})",
              "{n}\\tanh({k})", "{n} + \\sin(e^{{-{k}}})", "{n} + 10^{{-{k}}}\\pi",
              "{n}\\sqrt{{1 - e^{{-{k}}}}}", "{n} + \\frac{{1}}{{e^{{{k}}}}}"]
R4_EXACT_EQUAL = ["{n}(\\sin^2({k}) + \\cos^2({k}))", "\\sqrt{{{n2}}}", "\\log_2 2^{{{n}}}",
                  "{n} + \\ln(e^{{{k}}}) - {k}"]


@st.composite
def r4_transcendental_offset(draw: st.DrawFn) -> Case:
    """An exact value a transcendental hair (1e-60 to 1e-400) from the gold is another value;
    an exact value equal to the gold written the long way is the gold."""
    n = draw(st.integers(1, 500))
    k = draw(st.integers(60, 400))
    form = draw(st.sampled_from(sorted(MATH_COMMITS)))
    inner = r"\boxed{{{}}}" if form not in ("boxed", "boxed_dollar", "fbox",
                                             "display_boxed") else "{}"
    if draw(st.integers(0, 3)) == 0:
        expr = draw(st.sampled_from(R4_EXACT_EQUAL)).format(n=n, k=draw(st.integers(2, 9)),
                                                             n2=n * n)
        return Case(MATH_COMMITS[form].format(inner.format(expr)), str(n), "paid",
                    ("r4_exact_equal", form))
    expr = draw(st.sampled_from(R4_OFFSETS)).format(n=n, k=k)
    return Case(MATH_COMMITS[form].format(inner.format(expr)), str(n), "not_paid",
                ("r4_transcendental", form))


@st.composite
def r4_format_fence(draw: st.DrawFn) -> Case:
    """A well-formed completion inside a code fence is a code block: text outside the tags."""
    case = draw(format_well_formed())
    fence = draw(st.sampled_from(["```", "````", "~~~"]))
    lang = draw(st.sampled_from(["", "xml", "html", "text", "markdown"]))
    close = draw(st.sampled_from([fence, ""]))
    text = f"{fence}{lang}\n{case.completion}\n{close}"
    return Case(text, "", "not_paid", ("r4_fence", f"close={bool(close)}"))


@st.composite
def r4_coefficient_paren(draw: st.DrawFn) -> Case:
    """``\\boxed{3(x+1)}``: a parenthesis glued to a number multiplies it (it was read as a
    parenthetical remark after the amount and refused)."""
    c, a = draw(st.integers(2, 40)), draw(st.integers(1, 30))
    inner = draw(st.sampled_from(["x+{a}", "x-{a}", "{a}", "x^2+{a}", "2x-{a}", "n+{a}"]))
    power = draw(st.sampled_from(["", "^2", "^3"]))
    expr = f"{c}({inner.format(a=a)}){power}"
    form = draw(st.sampled_from(["boxed", "boxed_dollar", "display_boxed", "final_answer",
                                 "the_answer_is_math", "answer_tag"]))
    return Case(draw(st.sampled_from(REASONING)) + MATH_COMMITS[form].format(expr), expr, "paid",
                ("r4_coefficient_paren", form))


# (affirmed, negated) answer clauses: the negated one denies the value it names.
R4_NEGATIONS = [
    ("The answer is {}.", "The answer isn't {}."), ("It is {}.", "It isn’t {}."),
    ("It is {}.", "It can't be {}."), ("The result is {}.", "The result won't be {}."),
    ("La respuesta es {}.", "La respuesta no es {}."), ("A resposta é {}.", "A resposta não é {}."),
    ("Svaret är {}.", "Svaret är inte {}."), ("Vastaus on {}.", "Vastaus ei ole {}."),
    ("Svaret er {}.", "Svaret er ikke {}."),
    ("Η απάντηση είναι {}.",
     "Η απάντηση δεν είναι {}."),
    ("Đáp án là {}.", "Đáp án không phải là {}."),
]


@st.composite
def r4_negated_clause(draw: st.DrawFn, verifier: str) -> Case:
    """``The answer isn't \\boxed{5}.``: a negated copula before the value denies it, in a
    contraction or another language; the same clause without the negation pays."""
    n = draw(st.integers(0, 3000))
    affirmed, negated = draw(st.sampled_from(R4_NEGATIONS))
    value = draw(st.sampled_from([str(n), f"\\boxed{{{n}}}", f"$\\boxed{{{n}}}$", f"**{n}**"]))
    negate = draw(st.booleans())
    text = draw(st.sampled_from(REASONING)) + (negated if negate else affirmed).format(value)
    return Case(text, str(n), "not_paid" if negate else "paid",
                ("r4_negated_clause", f"negated={negate}", verifier))


@st.composite
def r4_lowercase_continuation(draw: st.DrawFn, verifier: str) -> Case:
    """``I think it's 4... or 5``: a period or ellipsis before a lower-case word ends no
    sentence, so the closing sentence offers two values."""
    n = draw(st.integers(0, 3000))
    w = draw(st.integers(0, 3000).filter(lambda v: v != n))
    stop = draw(st.sampled_from(["...", "…", ".", "!", ". . ."]))
    link = draw(st.sampled_from(["or", "or maybe", "or perhaps", "and", "possibly", "maybe"]))
    lead = draw(st.sampled_from(["I think it's ", "It is ", "So ", "Probably "]))
    return Case(f"{lead}{w}{stop} {link} {n}", str(n), "not_paid",
                ("r4_lowercase_continuation", stop, link, verifier))


R4_WEAK_FORMS = ("last_line", "equals", "equals_math", "bare", "last_number")
R4_BARE_LEADS = ["", "If n is even: ", "If n is odd: ", "Case 1: ", "Option A: ", "(a) ",
                 "**Final Answer**\n", "Otherwise ", "For $x > 0$: "]
R4_REVISIONS = ["Wait, I miscounted: 3 + 3 = 6 is wrong, it is 2 + 3.\n\n",
                "Hmm, recounting: ", "Actually, let me redo this: ", "Checking again, "]


@st.composite
def r4_bare_paragraphs(draw: st.DrawFn, verifier: str) -> Case:
    """Two bare answer paragraphs (nothing but a lead and a commitment) offer two answers;
    so does a final paragraph that says it revises the earlier one (round 17: no word takes
    an answer back; revise inside a reasoning block). Never paid."""
    n = draw(st.integers(0, 3000))
    w = draw(st.integers(0, 3000).filter(lambda v: v != n))
    commits = GSM8K_COMMITS if verifier == "gsm8k" else MATH_COMMITS
    first = draw(st.sampled_from(sorted(k for k in commits if k not in R4_WEAK_FORMS)))
    # the final paragraph commits outright (an "x = 5" after "Answer: 1" is no commitment)
    last = draw(st.sampled_from(sorted(k for k in commits if k not in R4_WEAK_FORMS)))
    lead1, lead2 = draw(st.sampled_from(R4_BARE_LEADS)), draw(st.sampled_from(R4_BARE_LEADS))
    earlier = lead1 + commits[first].format(str(w))
    assume("\n" not in earlier)
    reasoning = draw(st.sampled_from(REASONING))
    if draw(st.booleans()):
        text = f"{reasoning}{earlier}\n\n{lead2}{commits[last].format(str(n))}"
        return Case(text, str(n), "not_paid", ("r4_bare_paragraphs", first, last, verifier))
    revision = draw(st.sampled_from(R4_REVISIONS))
    text = f"{reasoning}{earlier}\n\n{revision}{commits[last].format(str(n))}"
    return Case(text, str(n), "not_paid", ("r4_revised_paragraph", first, last, verifier))


# (clause with {q} for a qualifier, qualifiers of that language): the bare clause pays, the
# qualified one states a bound or an estimate (a list written here, apart from the reader's)
R4_QUALIFIED = [
    ("答案{q}是{v}。", ["大约", "至少", "最多", "大概"]), ("答案{q}{v}。", ["约为", "不超过"]),
    ("答えは{q}{v}です。", ["およそ", "少なくとも"]), ("답은 {q}{v}입니다.", ["약 ", "최소 ", "최대 "]),
    ("Ответ: {q}{v}.", ["примерно ", "около ", "не менее ", "не более "]),
    ("Cevap {q}{v}.", ["yaklaşık ", "en az ", "en fazla "]),
    ("Jawabannya {q}{v}.", ["sekitar ", "paling sedikit ", "setidaknya "]),
    ("Đáp án {q}là {v}.", ["ít nhất ", "khoảng "]), ("Svaret är {q}{v}.", ["ungefär ", "minst ", "högst "]),
    ("Vastaus on {q}{v}.", ["noin ", "vähintään "]), ("Odpowiedź: {q}{v}.", ["około ", "co najmniej "]),
    ("Het antwoord is {q}{v}.", ["ongeveer ", "minstens "]), ("La risposta è {q}{v}.", ["circa ", "almeno "]),
    ("A resposta é {q}{v}.", ["cerca de ", "pelo menos "]),
    ("Η απάντηση είναι {q}{v}.", ["περίπου ", "τουλάχιστον "]),
]


@st.composite
def r4_qualified_clause(draw: st.DrawFn, verifier: str) -> Case:
    """``答案大约是\\boxed{645}``, ``Svaret är minst 5.``: an estimate or a bound in another
    language states no value; the same clause without the qualifier pays."""
    n = draw(st.integers(0, 3000))
    template, words = draw(st.sampled_from(R4_QUALIFIED))
    value = draw(st.sampled_from([str(n), f"\\boxed{{{n}}}", f"**{n}**", f"${n}$"]))
    qualified = draw(st.booleans())
    q = draw(st.sampled_from(words)) if qualified else ""
    text = draw(st.sampled_from(REASONING)) + template.format(q=q, v=value)
    return Case(text, str(n), "not_paid" if qualified else "paid",
                ("r4_qualified_clause", f"q={q.strip()}", verifier))


R4_GROUP_SEPARATORS = ["\\ ", "\\,", "{,}", ",", " ", "\\!", ",\\!"]


@st.composite
def r4_grouped_number(draw: st.DrawFn) -> Case:
    """A number written in thousands groups has one reading on every comparison path: it
    pays for itself and never for the product of its groups, their list, or its last group
    (``\\boxed{2\\ 500}`` was paid for 2500 and for 1000)."""
    n = draw(st.integers(1000, 10**9))
    groups = f"{n:,}".split(",")
    sep = draw(st.sampled_from(R4_GROUP_SEPARATORS))
    text = MATH_COMMITS[draw(st.sampled_from(["boxed", "boxed_dollar", "display_boxed"]))].format(
        sep.join(groups))
    product = 1
    for g in groups:
        product *= int(g)
    other = draw(st.sampled_from(["self", "product", "list", "last"]))
    gold = {"self": str(n), "product": str(product), "list": ", ".join(str(int(g)) for g in groups),
            "last": str(int(groups[-1]))}[other]
    if other != "self" and gold == str(n):
        other = "self"
    return Case(text, gold, "paid" if other == "self" else "not_paid",
                ("r4_grouped_number", f"sep={sep!r}", other))


R4_HEDGING_LABELS = ["Wrong answer", "Incorrect", "Not", "Probably", "Maybe", "My guess",
                     "Less than", "More than", "At least", "Lower bound", "Approx", "Estimate",
                     "Draft answer", "Unsure", "Perhaps the answer", "Vielleicht", "Quizás",
                     "Falsch", "Another answer", "Answer (rough)"]
R4_PLAIN_LABELS = ["Final answer", "Answer", "Total", "Total cost", "Result", "So the answer",
                   "Solution", "Svar", "Final Answer", "The answer"]
# Labels outside the answer-label allow-list are refused whatever they mean (round 5): a
# quantity's name ("Apples left over") as much as a hedge the lists never held ("Nearly").
R4_UNLISTED_LABELS = ["Apples left over", "No. of apples", "Initial amount", "Nearly", "Almost",
                      "Eliminated", "Approaching", "Rejected", "Ruled out", "Discarded"]
R4_BOUND_OPENINGS = ["At least", "At most", "Below", "Over", "Under", "Up to", "Upwards of",
                     "In excess of", "No more than", "Hardly", "Nearly", "Almost",
                     "Give or take", "Roughly", "About"]


@st.composite
def r4_hedging_lead(draw: st.DrawFn, verifier: str) -> Case:
    """A label that hedges, negates or bounds (``Wrong answer: 5``, ``Probably: 72``) or a
    sentence that opens with a bound (``At least \\boxed{72}.``) states no value, nor does a
    label or opening word outside the allow-list (``Nearly: 5``, random consonant words); an
    answer label (``Total: 5``, ``Final answer: 5``) does."""
    n = draw(st.integers(0, 3000))
    value = draw(st.sampled_from([str(n), f"\\boxed{{{n}}}", f"**{n}**", f"${n}$"]))
    kind = draw(st.sampled_from(["label", "opening", "plain", "unlisted", "random_word"]))
    if kind == "label":
        text, expect = f"{draw(st.sampled_from(R4_HEDGING_LABELS))}: {value}", "not_paid"
    elif kind == "unlisted":
        text, expect = f"{draw(st.sampled_from(R4_UNLISTED_LABELS))}: {value}", "not_paid"
    elif kind == "random_word":  # any word the allow-list does not hold, as label or opening
        word = draw(st.text("bcdfghjklmnpqrstvwxz", min_size=3, max_size=9).map(str.capitalize))
        colon = draw(st.sampled_from([":", ""]))
        text, expect = f"{word}{colon} {value}.", "not_paid"
    elif kind == "opening":
        text, expect = f"{draw(st.sampled_from(R4_BOUND_OPENINGS))} {value}.", "not_paid"
    else:
        text, expect = f"{draw(st.sampled_from(R4_PLAIN_LABELS))}: {value}", "paid"
    return Case(draw(st.sampled_from(REASONING)) + text, str(n), expect,
                ("r4_hedging_lead", kind, verifier))


R4_LONE_DRESSINGS = ["{}", "**{}**", "${}$", "$${}$$", "\\[ {} \\]", "- {}", "> {}", "({})",
                     "`{}`", "*{}*", "| {} |"]


@st.composite
def r4_lone_value_line(draw: st.DrawFn, verifier: str) -> Case:
    """A value alone on a line of the final paragraph is an answer offered (``2`` then
    ``\\boxed{4}``) unless later arithmetic uses it (``7`` then ``7 \\times 2 = 14``)."""
    n = draw(st.integers(2, 3000))
    w = draw(st.integers(2, 3000).filter(lambda v: v != n))
    commits = GSM8K_COMMITS if verifier == "gsm8k" else MATH_COMMITS
    form = draw(st.sampled_from(sorted(k for k in commits if k not in R4_WEAK_FORMS)))
    lone = draw(st.sampled_from(R4_LONE_DRESSINGS)).format(w)
    if draw(st.booleans()):
        text = f"{lone}\n{commits[form].format(str(n))}"
        return Case(text, str(n), "not_paid", ("r4_lone_value", form, verifier))
    k = draw(st.integers(2, 9))
    text = f"{lone}\n{w} \\times {k} = {w * k}\n{commits[form].format(str(w * k))}"
    return Case(text, str(w * k), "paid", ("r4_lone_value_used", form, verifier))


R4_SAID_REVISIONS = ["Wait, actually it's", "Edit:", "Oh wait,", "Actually,", "Correction:",
                     "Sorry, it should be", "Doch nicht,", "Update:", "Oops,"]


@st.composite
def r4_same_paragraph_revision(draw: st.DrawFn, verifier: str) -> Case:
    """A displayed value revised in the same paragraph is still offered (``**92**. Wait,
    actually it's **84**.``); the same value restated after the words is one answer."""
    n = draw(st.integers(0, 3000))
    w = draw(st.integers(0, 3000).filter(lambda v: v != n))
    same = draw(st.booleans())
    first = draw(st.sampled_from(["**{}**", "${}$"])).format(n if same else w)
    sep = draw(st.sampled_from([". ", "\n", ".\n"]))
    last = draw(st.sampled_from(["**{}**", "${}$", "\\boxed{{{}}}"])).format(n)
    said = draw(st.sampled_from(R4_SAID_REVISIONS))
    text = f"{first}{sep}{said} {last}."
    # an opener outside English is not read before a commitment, so "Doch nicht, **5**" is
    # refused even when it restates the same value (the README's opener rule)
    expect = "paid" if same and said.isascii() and not said.startswith("Doch") else (
        "not_paid" if not same else "any")
    return Case(draw(st.sampled_from(REASONING)) + text, str(n), expect,
                ("r4_same_paragraph_revision", f"same={same}", verifier))


R4_MAYBES = ["The answer might be ", "I guess ", "Quizás ", "Vielleicht ", "Forse ", "Kanske ",
             "Może ", "Mungkin ", "Belki ", "たぶん", "아마 ", "也许", "Probably ", "It could be "]
R4_CONDITIONS = ["Якщо n непарне, ", "Se n è dispari, ", "Als n oneven is, ",
                 "Αν το n είναι περιττό, ", "Nếu n lẻ, ", "Jos n on pariton, ", "Eğer n tek ise, ",
                 "Jeśli n jest nieparzyste, ", "Om n är udda, ", "Hvis n er ulige, "]


@st.composite
def r4_maybe_or_condition(draw: st.DrawFn, verifier: str) -> Case:
    """A "maybe" right before the value, or a condition that opens its sentence, in many
    languages, states no answer; the bare value after a plain lead pays."""
    n = draw(st.integers(0, 3000))
    value = draw(st.sampled_from([str(n), f"\\boxed{{{n}}}", f"**{n}**"]))
    kind = draw(st.sampled_from(["maybe", "condition", "plain"]))
    lead = {"maybe": R4_MAYBES, "condition": R4_CONDITIONS,
            "plain": ["The answer is ", "So the answer is ", "Answer: "]}[kind]
    text = draw(st.sampled_from(REASONING)) + draw(st.sampled_from(lead)) + value + "."
    return Case(text, str(n), "paid" if kind == "plain" else "not_paid",
                ("r4_maybe_or_condition", kind, verifier))


R4_PROPERTIES: list[Property] = (
    [Property(f"r4_{v}_invisible_payload", v, r4_invisible_payload(v), 150)
     for v in ("math", "gsm8k")]
    + [Property("r4_countdown_invisible_payload", "countdown", r4_countdown_payload(), 80),
       Property("r4_math_hidden_choice", "math", r4_hidden_choice(), 120),
       Property("r4_math_transcendental_offset", "math", r4_transcendental_offset(), 80),
       Property("r4_format_fence", "format", r4_format_fence(), 100),
       Property("r4_math_coefficient_paren", "math", r4_coefficient_paren(), 100)]
    + [Property(f"r4_{v}_negated_clause", v, r4_negated_clause(v), 120) for v in ("math", "gsm8k")]
    + [Property(f"r4_{v}_lowercase_continuation", v, r4_lowercase_continuation(v), 80)
       for v in ("math", "gsm8k")]
    + [Property(f"r4_{v}_bare_paragraphs", v, r4_bare_paragraphs(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"r4_{v}_qualified_clause", v, r4_qualified_clause(v), 150) for v in ("math", "gsm8k")]
    + [Property("r4_math_grouped_number", "math", r4_grouped_number(), 200)]
    + [Property(f"r4_{v}_hedging_lead", v, r4_hedging_lead(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"r4_{v}_lone_value_line", v, r4_lone_value_line(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"r4_{v}_same_paragraph_revision", v, r4_same_paragraph_revision(v), 120)
       for v in ("math", "gsm8k")]
    + [Property(f"r4_{v}_maybe_or_condition", v, r4_maybe_or_condition(v), 120)
       for v in ("math", "gsm8k")]
)
ALL_PROPERTIES += R4_PROPERTIES


# ---------------------------------------------------------------------------------------
# Round 5 (issue 30, the blind h21 set): what stands before the final value is an allow-list
# (``verifiers.answer_lead``); sentences and clauses that open with another value offer it.

R5_VALUE_SENTENCES = ["{o} is correct.", "{o} maybe.", "{o} works too!", "**{o}** is right.",
                      "{o} also works.", "{o} \u0432\u0435\u0440\u043d\u043e.",
                      "{o} est juste.", "{o} ist richtig."]
R5_FINALS = ["\\boxed{{{g}}}", "The answer is {g}.", "So the answer is $\\boxed{{{g}}}$.",
             "Answer: {g}", "#### {g}"]


@st.composite
def r5_value_first(draw: st.DrawFn, verifier: str) -> Case:
    """A sentence (or a clause before the answer's own) that opens with another value and
    says something of it offers that value (``6 is correct.`` then ``\\boxed{5}``; ``6 also
    works; the answer is 5.``): never paid; the same value there is paid."""
    g = draw(st.integers(2, 999))
    same = draw(st.booleans())
    o = g if same else draw(st.integers(2, 999).filter(lambda v: v != g))
    final = draw(st.sampled_from(R5_FINALS)).format(g=g)
    if draw(st.booleans()):
        sentence = draw(st.sampled_from(R5_VALUE_SENTENCES)).format(o=o)
        sep = draw(st.sampled_from([" ", "\n"]))
        text = f"{sentence}{sep}{final}"
    else:
        clause = draw(st.sampled_from(["{o} also works", "{o} is fine too", "{o} is possible"])).format(o=o)
        text = f"{clause}; {final[0].lower()}{final[1:]}" if final[0].isalpha() else f"{clause}, {final}"
    expect = "paid" if same else "not_paid"
    if same and text.startswith(f"{o} ") and "\n" not in text and "." not in text.split(str(o), 1)[1][:20]:
        expect = "skip"  # a clause restating the answer may be refused (no reading of "also")
    if same and "maybe" in text:
        expect = "skip"  # "516 maybe." doubts the value it restates: refusing it is sound
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), expect,
                ("r5_value_first", f"same={same}", verifier))


R5_QUALIFYING_OPENERS = ["Probably", "Incorrectly", "Approximately", "Roughly speaking", "Usually",
                         "In the worst case", "Otherwise", "Wahrscheinlich", "Presumably",
                         "\u304a\u304a\u3088\u305d", "\u0631\u0628\u0645\u0627"]
R5_PLAIN_OPENERS = ["So", "Thus", "Therefore", "In conclusion", "Adding these up",
                    "Based on the calculations above", "Finally", "Since the question asks for the total"]


@st.composite
def r5_opener(draw: st.DrawFn, verifier: str) -> Case:
    """A sentence opener before the answer's clause: one that doubts, negates, approximates
    or sets a scenario (``Probably, the answer is 5.``, an -ly adverb made of random letters,
    a word of another script) is never paid; a connective or free prose is."""
    g = draw(st.integers(0, 999))
    kind = draw(st.sampled_from(["qualifying", "random_ly", "plain"]))
    if kind == "qualifying":
        opener = draw(st.sampled_from(R5_QUALIFYING_OPENERS))
    elif kind == "random_ly":
        opener = draw(st.text("bcdfghkmnprstvz", min_size=4, max_size=8).map(lambda w: w.capitalize() + "ly"))
    else:
        opener = draw(st.sampled_from(R5_PLAIN_OPENERS))
    comma = "\u060c" if opener.startswith("\u0631") else draw(st.sampled_from([",", "\uff0c"])) if not opener.isascii() else ","
    final = draw(st.sampled_from(["the answer is {g}.", "\\boxed{{{g}}}.", "we get $\\boxed{{{g}}}$.",
                                  "#### {g}"])).format(g=g)
    return Case(draw(st.sampled_from(REASONING[:3])) + f"{opener}{comma} {final}", str(g),
                "paid" if kind == "plain" else "not_paid", ("r5_opener", kind, verifier))


R5_ANSWER_LABELS = ["Endg\u00fcltige Antwort", "R\u00e9ponse finale", "Risposta finale", "Svar",
                    "\u0412\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c",
                    "\u041e\u043a\u043e\u043d\u0447\u0430\u0442\u0435\u043b\u044c\u043d\u044b\u0439 \u043e\u0442\u0432\u0435\u0442",
                    "\ucd5c\uc885 \ub2f5", "\u067e\u0627\u0633\u062e", "Son cevap", "Jawaban akhir",
                    "\u03a4\u03b5\u03bb\u03b9\u03ba\u03ae \u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7"]


@st.composite
def r5_answer_label(draw: st.DrawFn, verifier: str) -> Case:
    """"Final answer" labels of many languages pay (the label allow-list lists them); an
    unlisted word of random letters before the colon does not."""
    g = draw(st.integers(0, 5000))
    value = draw(st.sampled_from([str(g), f"**{g}**", f"${g}$", f"$\\boxed{{{g}}}$"]))
    if draw(st.booleans()):
        label, expect = draw(st.sampled_from(R5_ANSWER_LABELS)), "paid"
    else:
        label = draw(st.text("bcdfghjklmnpqrstvwxz", min_size=3, max_size=9).map(str.capitalize))
        expect = "not_paid"
    bold = draw(st.booleans())
    text = f"**{label}:** {value}" if bold else f"{label}: {value}"
    return Case(draw(st.sampled_from(REASONING)) + text, str(g), expect, ("r5_answer_label", expect, verifier))


@st.composite
def r5_bracketed_joiner(draw: st.DrawFn, verifier: str) -> Case:
    """Another value, then a word set apart in brackets (``6 (or) #### 7``, ``5 {или}
    \\boxed{6}``, a random word), then the answer: never paid."""
    g = draw(st.integers(0, 999))
    o = draw(st.integers(0, 999).filter(lambda v: v != g))
    word = draw(st.one_of(st.sampled_from(["or", "of", "\u0438\u043b\u0438", "\u03ae", "tai",
                                           "\u092f\u093e", "o", "oder"]),
                          st.text("bcdfghjklmnpqrstvwxz", min_size=2, max_size=6)))
    left, right = draw(st.sampled_from(["()", "[]", "{}", "\u3010\u3011"]))
    final = draw(st.sampled_from(["#### {g}", "\\boxed{{{g}}}"])).format(g=g)
    return Case(f"{o} {left}{word}{right} {final}", str(g), "not_paid",
                ("r5_bracketed_joiner", verifier))


R5_PROPERTIES: list[Property] = (
    [Property(f"r5_{v}_value_first", v, r5_value_first(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"r5_{v}_opener", v, r5_opener(v), 150) for v in ("math", "gsm8k")]
    + [Property(f"r5_{v}_answer_label", v, r5_answer_label(v), 120) for v in ("math", "gsm8k")]
    + [Property(f"r5_{v}_bracketed_joiner", v, r5_bracketed_joiner(v), 80) for v in ("math", "gsm8k")]
)
ALL_PROPERTIES += R5_PROPERTIES


# --- round 6: what governs the answer clause, short openers, a value before the clause ---

# A made-up word: consonants only (no English word of the allow-lists but "hmm"), or with a
# Latin letter of another language in it ("bréz"), so it is no word the grammar may know.
R6_WORD = st.one_of(
    st.text("bcdfghjklmnpqrstvwxz", min_size=3, max_size=8).filter(lambda w: w != "hmm"),
    st.builds(lambda a, b, c: a + b + c, st.text("bcdfgklmnprst", min_size=1, max_size=3),
              st.sampled_from("\u00e0\u00e8\u00e9\u00ed\u00f3\u00fa\u00e7\u00f1\u1ebd\u01a1"),
              st.text("bcdfgklmnprst", min_size=0, max_size=3)),
)
R6_COMMITMENTS = ["the answer is \\boxed{{{g}}}.", "the answer is $\\boxed{{{g}}}$.",
                  "the final answer is {g}.", "our answer is {g}.", "\\boxed{{{g}}}.",
                  "#### {g}"]
R6_GOOD_LEADS = ["So ", "Thus ", "Hence ", "Therefore, ", "In total, ", "We conclude that ",
                 "This means ", "Adding these up, ", "Yes, ", "After simplifying, ", "Hmm, so ",
                 "By symmetry, ", "It grows by 20% so ", "Since 53 is prime, "]
R6_FOREIGN_CLAUSES = ["la respuesta es {g}.", "a resposta \u00e9 {g}.", "die Antwort ist {g}.",
                      "la r\u00e9ponse est {g}."]


@st.composite
def r6_clause_governor(draw: st.DrawFn, verifier: str) -> Case:
    """Words the grammar does not know before an answer clause or a commitment, with or
    without a comma, in English or another language (``I think the answer is \\boxed{5}``,
    ``Acho que a resposta é 5``, ``Labda, the answer is 5``, ``Kama n ni witiri, ...``) are
    never paid; the allow-listed leads are."""
    g = draw(st.integers(0, 3000))
    if draw(st.booleans()):
        lead, expect = draw(st.sampled_from(R6_GOOD_LEADS)), "paid"
        forms = R6_COMMITMENTS[:4] + (R6_COMMITMENTS[4:5] if lead.endswith(", ") else [])
        final = draw(st.sampled_from(forms)).format(g=g)
    else:
        # up to three words: a longer opener is free prose, read only for its doubt,
        # condition and -ly words (the README's opener rule)
        words = draw(st.lists(R6_WORD, min_size=1, max_size=2))
        words[0] = words[0].capitalize()
        if draw(st.booleans()):
            words.insert(1, draw(st.sampled_from(["n", "x", "que", "dat", "the"])))
        # an opener line that ends inside its sentence goes on on the next line (h23)
        sep = draw(st.sampled_from([" ", ", ", "\uff0c", "\u060c ", ",\n", " \u2014 ", "... "]))
        lead, expect = " ".join(words) + sep, "not_paid"
        final = draw(st.sampled_from(R6_COMMITMENTS + R6_FOREIGN_CLAUSES)).format(g=g)
    return Case(draw(st.sampled_from(REASONING[:3])) + lead + final, str(g), expect,
                ("r6_clause_governor", expect, verifier))


@st.composite
def r6_pronoun_clause(draw: st.DrawFn, verifier: str) -> Case:
    """``I think it's 5.``, ``<word> it is 5.``: what governs "it is" governs the value, so
    unknown words before it are never paid; ``So it's 5.`` is."""
    g = draw(st.integers(0, 3000))
    copula = draw(st.sampled_from(["it's", "it is", "that's"]))
    if draw(st.booleans()):
        lead, expect = draw(st.sampled_from(["So ", "Then ", "Thus ", "Yes, ", ""])), "paid"
    else:
        lead, expect = draw(st.sampled_from(["I think ", "I guess ", "Maybe "]) | R6_WORD.map(
            lambda w: f"I {w} ")), "not_paid"
    text = f"{lead}{copula} {g}."
    return Case(draw(st.sampled_from(REASONING[:3])) + text[0].upper() + text[1:], str(g), expect,
                ("r6_pronoun_clause", expect, verifier))


@st.composite
def r6_value_before_clause(draw: st.DrawFn, verifier: str) -> Case:
    """Another value joined to the answer clause by any mark (``6, and the answer is 5.``,
    ``6/the answer is \\boxed{5}``) is offered beside it: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    joint = draw(st.sampled_from([", and ", "/", ", ", "; ", " \u2014 so "]))
    final = draw(st.sampled_from(R6_COMMITMENTS[:4])).format(g=g)
    return Case(f"{o}{joint}{final}", str(g), "not_paid", ("r6_value_before_clause", verifier))


@st.composite
def r6_lone_value_sentence(draw: st.DrawFn, verifier: str) -> Case:
    """A sentence that is one value and nothing else (``$6$.``, ``**6**!``, ``968!``) before an
    unboxed closing sentence in any language offers that value: never paid. (A bare ``6.``
    at a line start is a list marker, and is left out.)"""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    shown = draw(st.sampled_from(["${}$", "**{}**", "*{}*", "\\({}\\)", "{}"])).format(o)
    punct = draw(st.sampled_from(["!", "."] if shown[0] in "$*\\" else ["!"]))
    closing = draw(st.sampled_from(["\u041e\u0442\u0432\u0435\u0442: {g}", "Die Antwort ist {g}.",
                                    "\u7b54\u6848\u662f{g}\u3002", "So {g}.", "La respuesta es {g}."]))
    text = f"{shown}{punct} {closing.format(g=g)}"
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "not_paid",
                ("r6_lone_value_sentence", verifier))


@st.composite
def r6_long_answer_label(draw: st.DrawFn, verifier: str) -> Case:
    """A line that names the answer and ends with another value, behind a label of any length
    (``One more possible final answer here: 6``, ``<words> answer <words> 6.``, ``答案 6``),
    then the final answer on a later line: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    before = " ".join(draw(st.lists(R6_WORD, min_size=1, max_size=4)))
    after = " ".join(draw(st.lists(R6_WORD, min_size=0, max_size=3)))
    noun = draw(st.sampled_from(["answer", "final answer", "Antwort", "respuesta", "\u7b54\u6848",
                                 "\u043e\u0442\u0432\u0435\u0442"]))
    sep = draw(st.sampled_from([": ", " ", ":** ", " = "]))
    line = f"{before.capitalize()} {noun} {after}".rstrip() + f"{sep}{o}" + draw(
        st.sampled_from(["", ".", "**"]))
    final = draw(st.sampled_from(["Final answer: {g}", "\\boxed{{{g}}}", "The answer is {g}.",
                                  "\u7b54\u6848\u662f{g}\u3002"])).format(g=g)
    return Case(f"{line}\n{final}", str(g), "not_paid", ("r6_long_answer_label", verifier))


R6_PROPERTIES: list[Property] = (
    [Property(f"r6_{v}_clause_governor", v, r6_clause_governor(v), 200) for v in ("math", "gsm8k")]
    + [Property(f"r6_{v}_pronoun_clause", v, r6_pronoun_clause(v), 100) for v in ("math", "gsm8k")]
    + [Property(f"r6_{v}_value_before_clause", v, r6_value_before_clause(v), 100)
       for v in ("math", "gsm8k")]
    + [Property(f"r6_{v}_lone_value_sentence", v, r6_lone_value_sentence(v), 100)
       for v in ("math", "gsm8k")]
    + [Property(f"r6_{v}_long_answer_label", v, r6_long_answer_label(v), 100)
       for v in ("math", "gsm8k")]
)
ALL_PROPERTIES += R6_PROPERTIES


# --- round 7: values in words and raised digits, lone command lines, a stray </think>,
# --- openers before a clause of a script without spaces, a condition on the line before ---

# Number words two to ten, written here from the languages' own spelling (not read from the
# verifier's table), and raised or lowered digits and CJK numerals.
R7_WORDS = {
    "de": "zwei drei vier f\u00fcnf sechs sieben acht neun zehn",
    "fr": "deux trois quatre cinq six sept huit neuf dix",
    "es": "dos tres cuatro cinco seis siete ocho nueve diez",
    "nl": "twee drie vier vijf zes zeven acht negen tien",
    "sv": "tv\u00e5 tre fyra fem sex sju \u00e5tta nio tio",
    "fi": "kaksi kolme nelj\u00e4 viisi kuusi seitsem\u00e4n kahdeksan yhdeks\u00e4n kymmenen",
    "pl": "dwa trzy cztery pi\u0119\u0107 sze\u015b\u0107 siedem osiem dziewi\u0119\u0107 dziesi\u0119\u0107",
    "tr": "iki \u00fc\u00e7 d\u00f6rt be\u015f alt\u0131 yedi sekiz dokuz",
    "id": "dua tiga empat lima enam tujuh delapan sembilan sepuluh",
    "sw": "mbili tatu nne tano sita saba nane tisa kumi",
    "ru": "\u0434\u0432\u0430 \u0442\u0440\u0438 \u0447\u0435\u0442\u044b\u0440\u0435 \u043f\u044f\u0442\u044c "
          "\u0448\u0435\u0441\u0442\u044c \u0441\u0435\u043c\u044c \u0432\u043e\u0441\u0435\u043c\u044c "
          "\u0434\u0435\u0432\u044f\u0442\u044c \u0434\u0435\u0441\u044f\u0442\u044c",
    "el": "\u03b4\u03cd\u03bf \u03c4\u03c1\u03af\u03b1 \u03c4\u03ad\u03c3\u03c3\u03b5\u03c1\u03b1 "
          "\u03c0\u03ad\u03bd\u03c4\u03b5 \u03ad\u03be\u03b9 \u03b5\u03c0\u03c4\u03ac "
          "\u03bf\u03ba\u03c4\u03ce \u03b5\u03bd\u03bd\u03ad\u03b1 \u03b4\u03ad\u03ba\u03b1",
    "hi": "\u0926\u094b \u0924\u0940\u0928 \u091a\u093e\u0930 \u092a\u093e\u0902\u091a \u091b\u0939 "
          "\u0938\u093e\u0924 \u0906\u0920 \u0928\u094c \u0926\u0938",
    "th": "\u0e2a\u0e2d\u0e07 \u0e2a\u0e32\u0e21 \u0e2a\u0e35\u0e48 \u0e2b\u0e49\u0e32 \u0e2b\u0e01 "
          "\u0e40\u0e08\u0e47\u0e14 \u0e41\u0e1b\u0e14 \u0e40\u0e01\u0e49\u0e32 \u0e2a\u0e34\u0e1a",
    "en": "two three four five six seven eight nine ten",
    "zh": "\u4e8c \u4e09 \u56db \u4e94 \u516d \u4e03 \u516b \u4e5d \u5341",
    "sup": "\u00b2 \u00b3 \u2074 \u2075 \u2076 \u2077 \u2078 \u2079",
    "sub": "\u2082 \u2083 \u2084 \u2085 \u2086 \u2087 \u2088 \u2089",
}
R7_FINALS = ["\\boxed{{{g}}}", "#### {g}", "The answer is {g}.", "\u7b54\u6848\u662f{g}\u3002",
             "Final answer: {g}"]


@st.composite
def _r7_spelled(draw: st.DrawFn, value: int, *, tail: bool = False) -> str:
    langs = [k for k in R7_WORDS if not (tail and k in ("sup", "sub", "zh"))]
    words = R7_WORDS[draw(st.sampled_from(langs))].split()
    word = words[value - 2]
    return word.capitalize() if draw(st.booleans()) else word


@st.composite
def r7_spelled_value(draw: st.DrawFn, verifier: str) -> Case:
    """A value offered in words of another language, in raised digits or in CJK numerals, in
    any slot that offers a value (alone on a line, a sentence alone, a sentence it opens, an
    earlier answer clause, after the final answer): never paid when it is not the gold
    (``vier\\n\\boxed{5}``, ``Sechs!``, ``Two auch.``, ``The answer is acht.``,
    ``\\boxed{5}; lima also works.``)."""
    g = draw(st.integers(2, 9 if verifier == "gsm8k" else 10))
    o = draw(st.integers(2, 9).filter(lambda v: v != g))
    final = draw(st.sampled_from(R7_FINALS)).format(g=g)
    slot = draw(st.sampled_from(["line", "sentence", "first", "clause", "tail"]))
    w = draw(_r7_spelled(o, tail=slot == "tail"))
    if slot == "line":
        text = f"{w}\n{final}"
    elif slot == "sentence":
        text = f"{w}{draw(st.sampled_from(['.', '!', '?', '...']))} {final}"
    elif slot == "first":
        rest = draw(st.sampled_from(["also works.", "auch.", "is fine too;", "aussi.",
                                     "\u3082\u3044\u3044\u3002", "seems right."]))
        text = f"{w} {rest}\n{final}"
    elif slot == "clause":
        text = f"The answer is {w}. {final}"
    else:
        final = draw(st.sampled_from(R7_FINALS[:2])).format(g=g)
        joiner = draw(st.sampled_from(["; ", " (", ", or "]))
        text = final + joiner + w + (")" if joiner == " (" else draw(st.sampled_from([" also works.", ""])))
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "not_paid",
                ("r7_spelled_value", slot, verifier))


@st.composite
def r7_spelled_restatement(draw: st.DrawFn, verifier: str) -> Case:
    """The gold itself in words beside the answer is paid: ``\\boxed{5} (fünf)``, ``The answer
    is six. \\boxed{6}``."""
    g = draw(st.integers(2, 9))
    w = draw(_r7_spelled(g, tail=True).filter(lambda s: not s[0].isupper() or s.isalpha()))
    text = draw(st.sampled_from(["\\boxed{{{g}}} ({w})", "The answer is {w}. \\boxed{{{g}}}"]))
    return Case(text.format(g=g, w=w), str(g), "paid", ("r7_spelled_restatement", verifier))


@st.composite
def r7_command_line(draw: st.DrawFn, verifier: str) -> Case:
    """A line that is one value among LaTeX commands (``\\mbox{6}``, ``\\verb|6|``,
    ``\\tag{6}``, ``\\<random> 6``) before the final answer offers it: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    name = draw(st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8))
    line = draw(st.sampled_from(["\\{n}{{{o}}}", "\\{n} {o}", "\\{n}|{o}|", "\\{n}{o}"]))
    final = draw(st.sampled_from(R7_FINALS[:2])).format(g=g)
    return Case(line.format(n=name, o=o) + "\n" + final, str(g), "not_paid",
                ("r7_command_line", verifier))


@st.composite
def r7_stray_think_end(draw: st.DrawFn, verifier: str) -> Case:
    """Only the first ``</think>`` ends the reasoning: a value shown after it and before a
    later stray ``</think>`` is in the answer (``<think>..</think>**2**</think>\\n\\boxed{7}``):
    never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    shown = draw(st.sampled_from(["**{}**", "{}", "${}$", "The answer is {}."])).format(o)
    think = draw(st.sampled_from(["", " ", "hmm", "12 * 3 = 36"]))
    final = draw(st.sampled_from(R7_FINALS[:3])).format(g=g)
    text = f"<think>{think}</think>{shown}</think>" + draw(st.sampled_from(["\n", "\n\n", " "])) + final
    return Case(text, str(g), "not_paid", ("r7_stray_think_end", verifier))


@st.composite
def r7_unspaced_clause_opener(draw: st.DrawFn, verifier: str) -> Case:
    """Made-up words or an approximation sign before an answer clause of a script written
    without spaces (``Jos en erehdy, 答案是2.``, ``~, 정답은 7.``, ``≈ cevap 9.``): never paid;
    an allow-listed connective there is (``So, 答案是2.``)."""
    g = draw(st.integers(0, 3000))
    clause = draw(st.sampled_from(["\u7b54\u6848\u662f{g}\u3002", "\uc815\ub2f5\uc740 {g}.",
                                   "\u7b54\u3048\u306f{g}.", "cevap {g}."])).format(g=g)
    if draw(st.booleans()):
        words = draw(st.lists(R6_WORD, min_size=1, max_size=3))
        lead = " ".join(words).capitalize()
    else:
        lead = draw(st.sampled_from(["\u2248", "~", "\u223c", "\\approx", "\u00b1"]))
    sep = draw(st.sampled_from([", ", " ", "\uff0c", ": ", " \u2014 "]))
    if sep == ": " and clause.startswith("cevap"):
        sep = " "
    return Case(lead + sep + clause, str(g), "not_paid", ("r7_unspaced_clause_opener", verifier))


@st.composite
def r7_condition_line_before(draw: st.DrawFn, verifier: str) -> Case:
    """A condition on the line before, ending in a comma, governs the value alone on the next
    line (``If n is odd,\\n5.``, ``For positive x,\\n**5**``, ``Als ik me niet vergis,\\n#### 5``):
    never paid."""
    g = draw(st.integers(0, 3000))
    var = draw(st.sampled_from("nxkmt"))
    cond = draw(st.sampled_from(["If {v} is odd", "For positive {v}", "When {v} > 0",
                                 "Unless {v} = 0", "Wenn {v} ungerade ist", "Si {v} est impair",
                                 "Als {v} oneven is", "Jika {v} ganjil"])).format(v=var)
    value = draw(st.sampled_from(["{g}.", "**{g}**", "\\boxed{{{g}}}", "#### {g}"])).format(g=g)
    return Case(f"{cond},\n{value}", str(g), "not_paid", ("r7_condition_line_before", verifier))


@st.composite
def r7_comma_joined_value(draw: st.DrawFn, verifier: str) -> Case:
    """A value joined to the commitment by a comma and a joiner (``**9**, and \\boxed{7}``,
    ``6; or #### 7``): never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    shown = draw(st.sampled_from(["**{}**", "{}", "${}$"])).format(o)
    joiner = draw(st.sampled_from([", and ", "; and ", ", or ", "\uff0c and ", ", & "]))
    final = draw(st.sampled_from(["\\boxed{{{g}}}", "<answer>{g}</answer>"])).format(g=g)
    return Case(shown + joiner + final, str(g), "not_paid", ("r7_comma_joined_value", verifier))


R7_PROPERTIES: list[Property] = [
    Property(f"r7_{v}_{name}", v, fn(v), n)
    for v in ("math", "gsm8k")
    for name, fn, n in (
        ("spelled_value", r7_spelled_value, 200),
        ("spelled_restatement", r7_spelled_restatement, 100),
        ("command_line", r7_command_line, 100),
        ("stray_think_end", r7_stray_think_end, 100),
        ("unspaced_clause_opener", r7_unspaced_clause_opener, 100),
        ("condition_line_before", r7_condition_line_before, 100),
        ("comma_joined_value", r7_comma_joined_value, 100),
    )
]
ALL_PROPERTIES += R7_PROPERTIES


# --- round 7, second part (the blind h24 set): candidates, committing sentences, display math,
# --- bare paragraphs, fraction words; run-on closings and foreign connectives are paid ---

R7_OR_WORDS = ["or", "ou", "oder", "o", "\u0438\u043b\u0438", "\u6216", "\u8fd8\u662f", "atau", "veya", "eller"]


@st.composite
def r7_candidates(draw: st.DrawFn, verifier: str) -> Case:
    """Two values offered as alternatives before the final answer (``either 43 or 21``,
    ``C'est 5 ou 6.``, ``Possible answers: 45, 16.``), then one of them as the answer: never
    paid."""
    a = draw(st.integers(0, 3000))
    b = draw(st.integers(0, 3000).filter(lambda v: v != a))
    if draw(st.booleans()):
        lead = draw(st.sampled_from(["It is", "I think it's either", "Either", "C'est", "Es", ""]))
        line = f"{lead} {a} {draw(st.sampled_from(R7_OR_WORDS))} {b}".strip() + draw(st.sampled_from([".", "?", "!"]))
    else:
        label = draw(st.sampled_from(["Possible answers", "Candidates", "Options", "Possible values"]))
        line = f"{label}: {a}{draw(st.sampled_from([', ', ' / ', ' or ', ' and ']))}{b}."
    g = draw(st.sampled_from([a, b]))
    final = draw(st.sampled_from(R7_FINALS)).format(g=g)
    return Case(f"{line}\n{final}", str(g), "not_paid", ("r7_candidates", verifier))


@st.composite
def r7_committing_sentence(draw: st.DrawFn, verifier: str) -> Case:
    """A sentence that commits to a value in a few words (``It's 6.``, ``Cevap 8.``, ``Es 4.``,
    ``是12。``), then a connective and another final answer in the paragraph: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    pron = draw(st.sampled_from(["It's", "That's", "It is", "Maybe it's", "C'est", "Es", "Det \u00e4r",
                                 "Cevap", "Svaret \u00e4r", "La respuesta es", "\u0423\u0442\u0432\u0435\u0440\u0436\u0434\u0430\u044e: \u044d\u0442\u043e"]))
    end = draw(st.sampled_from([".", "!", ", I think."]))
    sep = draw(st.sampled_from([" ", "\n"]))
    final = draw(st.sampled_from(["Thus, we get $\\boxed{{{g}}}$.", "So the answer is {g}.", "#### {g}",
                                  "Finally, \\boxed{{{g}}}."])).format(g=g)
    return Case(f"{pron} {o}{end}{sep}{final}", str(g), "not_paid", ("r7_committing_sentence", verifier))


@st.composite
def r7_display_value(draw: st.DrawFn, verifier: str) -> Case:
    """A value alone in display math at a line's start before the final answer
    (``\\[42\\] \\quad \\boxed{7}``, ``\\begin{equation}42\\end{equation}``): never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    env = draw(st.sampled_from(["equation", "equation*", "align*", "gather"]))
    shown = draw(st.sampled_from(["\\[{o}\\]", "\\[ {o} \\]", "$${o}$$", "BEGIN{o}END"])).format(o=o)
    shown = shown.replace("BEGIN", "\\begin{" + env + "}").replace("END", "\\end{" + env + "}")
    sep = draw(st.sampled_from([" \\quad ", ". ", "\n", " is correct.\n"]))
    final = draw(st.sampled_from(R7_FINALS[:2])).format(g=g)
    return Case(shown + sep + final, str(g), "not_paid", ("r7_display_value", verifier))


@st.composite
def r7_bare_paragraphs(draw: st.DrawFn, verifier: str) -> Case:
    """Two paragraphs that are each a bare value (``75\\n\\n57``, ``**44**\\n\\n**20**``, or a
    value then a ``**Final Answer**`` heading and a box): never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    dress = draw(st.sampled_from(["{}", "**{}**", "${}$", "#### {}"]))  # (a "####" line is no heading)
    if draw(st.booleans()):
        # a filler paragraph between is no reasoning (h25: "\\boxed{6}\n\nAlso:\n\n\\boxed{5}")
        filler = draw(st.sampled_from(["", "Also:\n\n", "---\n\n", "## Method 2\n\n", "**Alternatively**\n\n"]))
        lead = draw(st.sampled_from(["", "We add them.\n\n"]))  # a paragraph of reasoning before both
        text = lead + dress.format(o) + "\n\n" + filler + dress.format(g)
    else:
        text = dress.format(o) + draw(st.sampled_from([".\n", "\u2026 ", "! "])) + "**Final Answer**\n\n\\[\n\\boxed{" + str(g) + "}\n\\]"
    return Case(text, str(g), "not_paid", ("r7_bare_paragraphs", verifier))


@st.composite
def r7_fraction_words(draw: st.DrawFn, verifier: str) -> Case:
    """A fraction in words joined to the value (``#### 15 and one half``, ``\\boxed{3} and
    three-quarters``): the value is not the whole number, never paid for it."""
    g = draw(st.integers(1, 3000))
    frac = draw(st.sampled_from(["one half", "a half", "one third", "two thirds", "a quarter",
                                 "three-quarters", "one fifth", "one-fifth"]))
    final = draw(st.sampled_from(["#### {g}", "\\boxed{{{g}}}", "The answer is {g}"])).format(g=g)
    return Case(f"{final} and {frac}", str(g), "not_paid", ("r7_fraction_words", verifier))


@st.composite
def r7_run_on_closing(draw: st.DrawFn, verifier: str) -> Case:
    """A closing sentence run on after the answer, with or without its period, is paid
    (``#### 57. I hope it is correct.``, ``Answer: 3508 I hope this helps!``)."""
    g = draw(st.integers(0, 30000))
    final = draw(st.sampled_from(["#### {g}", "Answer: {g}", "Final answer: **{g}**",
                                  "The answer is {g}"])).format(g=g)
    sep = draw(st.sampled_from([". ", " "]))
    closing = draw(st.sampled_from(["I hope it is correct.", "I hope this helps!", "That is our answer.",
                                    "This is the final answer.", "Let me know if you have any questions."]))
    return Case(final + sep + closing, str(g), "paid", ("r7_run_on_closing", verifier))


R7_CONNECTIVE_CLAUSES = [
    "Quindi, la risposta \u00e8 {g}.", "Donc, la r\u00e9ponse est {g}.", "Por lo tanto, la respuesta es {g}.",
    "Portanto, a resposta \u00e9 {g}.", "Dus het antwoord is {g}.", "Daher, die Antwort ist {g}.",
    "Alts\u00e5 er svaret {g}.", "Kaya, ang sagot ay {g}.", "Kwa hiyo, jibu ni {g}.",
    "\u05dc\u05db\u05df, \u05d4\u05ea\u05e9\u05d5\u05d1\u05d4 \u05d4\u05d9\u05d0 {g}.",
    "\u0395\u03c0\u03bf\u03bc\u03ad\u03bd\u03c9\u03c2, \u03b7 \u03b1\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7 \u03b5\u03af\u03bd\u03b1\u03b9 {g}.",
    "\u041f\u043e\u044d\u0442\u043e\u043c\u0443 \u043e\u0442\u0432\u0435\u0442 {g}.", "\u7efc\u4e0a\uff0c\u7b54\u6848\u662f{g}\u3002",
    "Konačan odgovor: {g}", "Endeligt svar: {g}", "Deci, r\u0103spunsul este {g}.",
]


@st.composite
def r7_foreign_connective(draw: st.DrawFn, verifier: str) -> Case:
    """"So, the answer is" and "final answer:" in other languages are paid
    (``Quindi, la risposta è 693.``, ``综上，答案是6。``, ``Endeligt svar: 719``)."""
    g = draw(st.integers(0, 3000))
    text = draw(st.sampled_from(R7_CONNECTIVE_CLAUSES)).format(g=g)
    if draw(st.booleans()):
        text = text.replace(f"{g}", f"$\\boxed{{{g}}}$", 1)
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "paid", ("r7_foreign_connective", verifier))


@st.composite
def r7_choice_letters(draw: st.DrawFn, verifier: str) -> Case:
    """Another choice letter offered in the paragraph of a boxed letter (``(E) is correct.
    \\boxed{B}``, ``**(C)**\\n\\boxed{A}``, ``D: correct.``) is a second answer: never paid; letters
    ruled out before it (``(A) is wrong.``) are no answers: paid."""
    letters = "ABCDE"
    g = draw(st.sampled_from(letters))
    o = draw(st.sampled_from([c for c in letters if c != g]))
    if draw(st.booleans()):
        shown = draw(st.sampled_from(["({o}) is correct.", "**({o})**\n", "{o}: correct.\n", "Option {o} works.",
                                      "{o}. ", "{o}?\n", "{o} or {g}.\n"])).format(o=o, g=g)
        return Case(f"{shown} \\boxed{{{g}}}", g, "not_paid", ("r7_choice_letters", "offered", verifier))
    ruled = draw(st.sampled_from(["({o}) is wrong.", "({o}) is incorrect.", "Option {o} is not possible.",
                                  "({o}) can be eliminated."])).format(o=o)
    return Case(f"{ruled} So the answer is \\boxed{{{g}}}.", g, "paid", ("r7_choice_letters", "ruled_out", verifier))


@st.composite
def r7_countdown_offered(draw: st.DrawFn) -> Case:
    """Another expression offered before the tag in its paragraph (alone, as a list item or a
    quote, after a label, "is" or "maybe", opening a sentence) whose value is not the target
    is a second answer: never paid."""
    a, b, c = draw(st.lists(st.integers(1, 20), min_size=3, max_size=3))
    good = f"{a}*{b}+{c}"
    # an expression over the same numbers whose value misses the target (a*b+c+1 never hits it)
    bad = next(e for e, v in ((f"{a}+{b}+{c}", a + b + c), (f"{a}+{b}*{c}", a + b * c),
                              (f"{a}*{b}*{c}", a * b * c), (f"{a}*{b}-{c}", a * b - c)) if v != a * b + c)
    line = draw(st.sampled_from(["{e}", "- {e}", "> {e}", "Expression: {e}", "The expression is {e}.",
                                 "{e} also works.", "Maybe {e}.", "1. {e}"])).format(e=bad)
    return Case(f"{line}\n<answer>{good}</answer>", str(a * b + c), "not_paid", ("r7_countdown_offered",),
                (a, b, c))


@st.composite
def r7_unread_slot(draw: st.DrawFn, verifier: str) -> Case:
    """A made-up word standing where a value stands (a line of its own, after a hedge, judged
    right, after an answer label) stands for a value the grammar cannot read (``veintiuno.``,
    ``Maybe ishirini.``, ``fiche is right.``, ``Result: tuttugu``): never paid."""
    g = draw(st.integers(0, 3000))
    word = draw(R6_WORD)
    slot = draw(st.sampled_from(["{w}.", "{w}!", "*{w}*", "<p>{w}</p>", "Maybe {w}.", "Or {w}.",
                                 "Could be {w}.", "{w} is right.", "{w} also works.", "Result: {w}"]))
    final = draw(st.sampled_from(R7_FINALS)).format(g=g)
    return Case(draw(st.sampled_from(REASONING[:3])) + slot.format(w=word) + "\n" + final, str(g), "not_paid",
                ("r7_unread_slot", verifier))


R7B_PROPERTIES: list[Property] = [
    Property(f"r7_{v}_{name}", v, fn(v), n)
    for v in ("math", "gsm8k")
    for name, fn, n in (
        ("candidates", r7_candidates, 100),
        ("committing_sentence", r7_committing_sentence, 100),
        ("display_value", r7_display_value, 100),
        ("bare_paragraphs", r7_bare_paragraphs, 100),
        ("fraction_words", r7_fraction_words, 100),
        ("run_on_closing", r7_run_on_closing, 100),
        ("foreign_connective", r7_foreign_connective, 100),
        ("unread_slot", r7_unread_slot, 100),
    )
] + [Property("r7_math_choice_letters", "math", r7_choice_letters("math"), 100),
      Property("r7_countdown_offered", "countdown", r7_countdown_offered(), 100)]
R7_PROPERTIES += R7B_PROPERTIES
ALL_PROPERTIES += R7B_PROPERTIES


# --- round 8 (the blind h26 set): a chain of equalities is one answer only when every side
# --- is the gold (``\frac{1}{8} = 0.125``, ``x = 5 + 22 = 27``); a side that is not is another
# --- value offered ---


def _r8_side(draw: st.DrawFn, value: int) -> str:
    a = draw(st.integers(0, 50))
    return draw(st.sampled_from([str(value), f"{a} + {value - a}", f"{value + a} - {a}",
                                 f"\\frac{{{2 * value}}}{{2}}", f"{value} \\cdot 1", f"({value})"]))


@st.composite
def r8_equality_chain(draw: st.DrawFn, verifier: str) -> Case:
    """``A = B (= C)`` committed as the answer: paid only when every side equals the gold."""
    g = draw(st.integers(1, 3000))
    o = draw(st.integers(1, 3000).filter(lambda v: v != g))
    wrong = draw(st.lists(st.booleans(), min_size=2, max_size=3))
    sides = [_r8_side(draw, o if w else g) for w in wrong]
    chain = " = ".join(sides)
    form = draw(st.sampled_from(["\\boxed{{{c}}}", "The answer is ${c}$.", "So $x = {c}$.",
                                 "Final answer: ${c}$", "$$x = {c}$$"]))
    expect = "not_paid" if any(wrong) else "paid"
    return Case(draw(st.sampled_from(REASONING[:3])) + form.format(c=chain), str(g), expect,
                ("r8_equality_chain", f"wrong={wrong}", verifier))


R8_CHOICE_LABELS = ["\u041e\u0442\u0432\u0435\u0442: {L}", "\u7b54\u6848\u662f{L}", "\u7b54\u6848\uff1a{L}",
                    "\uc815\ub2f5\uc740 {L}\uc785\ub2c8\ub2e4.", "La respuesta es ({L}).",
                    "Die Antwort ist {L}.", "**R\u00e9ponse : {L}**", "Resposta: {L}",
                    # "correct" in the lead (LABEL_WORDS): "Правильный ответ", "richtige Antwort"
                    "\u041f\u0440\u0430\u0432\u0438\u043b\u044c\u043d\u044b\u0439 \u043e\u0442\u0432\u0435\u0442: {L}.",
                    "Die richtige Antwort ist {L}.", "Doğru cevap {L}."]


@st.composite
def r8_choice_closing(draw: st.DrawFn, verifier: str) -> Case:
    """A choice letter after an answer noun of any language closes an answer (``Ответ: B``,
    ``答案是B``): paid; after a hedge word, or with another letter offered in its paragraph
    (``(C) is correct.``), or two letters in it: never paid."""
    letters = "ABCDE"
    g = draw(st.sampled_from(letters))
    o = draw(st.sampled_from([c for c in letters if c != g]))
    closing = draw(st.sampled_from(R8_CHOICE_LABELS)).format(L=g)
    kind = draw(st.sampled_from(["plain", "other_offered", "hedge_lead", "two_letters"]))
    if kind == "other_offered":
        closing = draw(st.sampled_from([f"({o}) is correct.\n", f"**({o})**\n", f"{o}: correct.\n"])) + closing
    elif kind == "hedge_lead":
        closing = draw(st.sampled_from(["Maybe ", "\u0412\u043e\u0437\u043c\u043e\u0436\u043d\u043e, ", "\u4e5f\u8bb8"])) + closing
    elif kind == "two_letters":
        head, _, tail = closing.rpartition(g)  # the letter is the label's last capital
        closing = head + f"{g} {draw(st.sampled_from(['or', 'или', '或']))} {o}" + tail
    pre = draw(st.sampled_from(["", "First, 2 + 3 = 5.\n", "Let me think.\n\n"]))
    return Case(pre + closing, g, "paid" if kind == "plain" else "not_paid",
                ("r8_choice_closing", kind, verifier))


R8_PROPERTIES: list[Property] = [
    Property("r8_math_choice_closing", "math", r8_choice_closing("math"), 200),
    Property("r8_math_equality_chain", "math", r8_equality_chain("math"), 300),
]
ALL_PROPERTIES += R8_PROPERTIES


# --- round 9 (the blind h27 set): a closed reasoning block is the working; an answer after
# --- its end is read alone, and what the block tried on the way does not compete with it ---

R9_TRIED = ["The answer is {o}.", "\\boxed{{{o}}}", "#### {o}", "\u7b54\u6848\u662f{o}\u3002",
            "So it is {o}? Wait, let me check.", "{o}", "<answer>{o}</answer>",
            "\u7b54\u6848\u662f{o}\u3002\u7b49\u7b49\uff0c\u6211\u7b97\u9519\u4e86\u3002"]
R9_FINALS = ["\\boxed{{{g}}}", "#### {g}", "The answer is {g}.", "The answer is $\\boxed{{{g}}}$.",
             "<answer>{g}</answer>", "**Final answer:** {g}", "\u7b54\u6848\u662f{g}\u3002"]


@st.composite
def r9_reasoning_block(draw: st.DrawFn, verifier: str) -> Case:
    """``<think>`` (or no opening tag, as R1 decodes) tries values, ``</think>``, then one
    answer: paid when that answer is the gold, whatever the block tried; never paid when it
    is not, even if the block tried the gold; and an alternative after the block still
    hedges (``</think> \\boxed{g} or o``)."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    tried = [draw(st.sampled_from(R9_TRIED)).format(o=draw(st.sampled_from([g, o])))
             for _ in range(draw(st.integers(1, 3)))]
    opening = draw(st.sampled_from(["<think>\n", "<think>", ""]))
    gap = draw(st.sampled_from(["\n\n", "\n", " ", ""]))
    kind = draw(st.sampled_from(["gold", "other", "hedged_after"]))
    final = draw(st.sampled_from(R9_FINALS)).format(g=o if kind == "other" else g)
    if kind == "hedged_after":
        final += draw(st.sampled_from([" or {o}", " \u6216{o}", "\nAns = {o}"])).format(o=o)
    text = opening + "\n".join(tried) + "\n</think>" + gap + final
    return Case(text, str(g), "paid" if kind == "gold" else "not_paid",
                ("r9_reasoning_block", kind, verifier))


R9_ADVERBS = ["definitely", "clearly", "indeed", "therefore", "thus", "exactly", "precisely",
              "certainly", "simply", "just", "Definitely,"]


@st.composite
def r9_committing_adverb(draw: st.DrawFn, verifier: str) -> Case:
    """An adverb that only stresses the answer clause's value (``The answer is definitely
    30.``): paid; with another value offered after it, or after a bounding or adding adverb
    (``also``, ``about``, ``at least``): never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    adverb = draw(st.sampled_from(R9_ADVERBS))
    kind = draw(st.sampled_from(["plain", "plain", "alternative", "bound"]))
    if kind == "bound":
        adverb = draw(st.sampled_from(["also", "about", "at least", "approximately", "not"]))
    value = draw(st.sampled_from(["{g}", "${g}$", "**{g}**"])).format(g=g)
    tail = draw(st.sampled_from([" or {o}", ", {o}", " (or {o})"])).format(o=o) if (
        kind == "alternative") else ""
    lead = draw(st.sampled_from(["The answer is", "The final answer is", "So the answer is"]))
    text = draw(st.sampled_from(REASONING[:3])) + f"{lead} {adverb} {value}{tail}."
    return Case(text, str(g), "paid" if kind == "plain" else "not_paid",
                ("r9_committing_adverb", kind, verifier))


R9_LABELS = ["The right answer is {v}.", "\u0418\u0442\u043e\u0433\u043e: {v}.", "\u0110\u00e1p s\u1ed1: {v}",
             "V\u1eady \u0111\u00e1p s\u1ed1 l\u00e0 {v}.", "<answer>The answer is {v}.</answer>",
             "<answer>The answer is {v}</answer>"]


@st.composite
def r9_label_variants(draw: st.DrawFn, verifier: str) -> Case:
    """Answer labels the h27 set wrote (``The right answer is``, ``Итого:``, ``Đáp số:``, an
    answer clause inside ``<answer>``): paid; with another value joined to it: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    joined = draw(st.booleans())
    value = str(g) + (draw(st.sampled_from([" or {o}", " ho\u1eb7c {o}", " \u0438\u043b\u0438 {o}", ", {o}"])).format(o=o)
                      if joined else "")
    text = draw(st.sampled_from(REASONING[:3])) + draw(st.sampled_from(R9_LABELS)).format(v=value)
    return Case(text, str(g), "not_paid" if joined else "paid", ("r9_label_variants", verifier))


R9_SCRIPT_ZEROS = [0x0660, 0x06F0, 0x0966, 0x09E6, 0x0E50, 0xFF10]  # Arabic-Indic ... fullwidth
R9_NATIVE_LABELS = ["\u0627\u0644\u062c\u0648\u0627\u0628: {v}", "\u0909\u0924\u094d\u0924\u0930: {v}",
                    "\u0989\u09a4\u09cd\u09a4\u09b0 {v}\u0964", "Answer: {v}", "\u7b54\u6848\u662f{v}\u3002"]


def _in_script(value: int, zero: int) -> str:
    return "".join(chr(zero + int(d)) for d in str(value))


@st.composite
def r9_native_digits(draw: st.DrawFn, verifier: str) -> Case:
    """Digits of any script read as their values: an answer label with the gold in native
    digits is paid; another value in native digits, joined to it or alone on a line before
    a box of the gold, is offered: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    zero = draw(st.sampled_from(R9_SCRIPT_ZEROS))
    kind = draw(st.sampled_from(["plain", "plain", "joined", "line_before"]))
    label = draw(st.sampled_from(R9_NATIVE_LABELS))
    if kind == "plain":
        text = label.format(v=_in_script(g, zero))
    elif kind == "joined":
        text = label.format(v=f"{_in_script(g, zero)} or {_in_script(o, zero)}")
    else:
        text = f"{_in_script(o, zero)}\n\\boxed{{{g}}}"
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g),
                "paid" if kind == "plain" else "not_paid", ("r9_native_digits", kind, verifier))


R9_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "twenty-one"]
R9_WORD_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21]


@st.composite
def r9_math_words(draw: st.DrawFn) -> Case:
    """math_check reads a number in words as GSM8K does (``The answer is two.``, ``\\boxed{two}``):
    paid for its value; with another value joined to it, or for another gold: never paid."""
    i = draw(st.integers(0, len(R9_WORDS) - 1))
    j = draw(st.integers(0, len(R9_WORDS) - 1).filter(lambda k: k != i))
    kind = draw(st.sampled_from(["plain", "plain", "joined", "other_gold"]))
    word = R9_WORDS[i] + (f" or {R9_WORDS[j]}" if kind == "joined" else "")
    form = draw(st.sampled_from(["The answer is {w}.", "\\boxed{{{w}}}", "Final answer: {w}"]))
    gold = R9_WORD_VALUES[j if kind == "other_gold" else i]
    return Case(form.format(w=word), str(gold), "paid" if kind == "plain" else "not_paid",
                ("r9_math_words", kind))


@st.composite
def r9_choice_option(draw: st.DrawFn) -> Case:
    """``The correct option is A.`` / ``The correct choice is **(E)**.`` close an answer: paid;
    with two letters, or a hedge before it: never paid."""
    letters = "ABCDE"
    g = draw(st.sampled_from(letters))
    o = draw(st.sampled_from([c for c in letters if c != g]))
    letter = draw(st.sampled_from(["{L}", "({L})", "**({L})**", "**{L}**"]))
    kind = draw(st.sampled_from(["plain", "plain", "two", "hedge"]))
    shown = letter.format(L=g) + (f" or {o}" if kind == "two" else "")
    head = draw(st.sampled_from(["The correct option is", "The correct choice is", "Correct option:"]))
    text = ("Maybe " + head[0].lower() + head[1:] if kind == "hedge" else head) + f" {shown}."
    return Case(draw(st.sampled_from(REASONING[:3])) + text, g,
                "paid" if kind == "plain" else "not_paid", ("r9_choice_option", kind))


@st.composite
def r9_label_alone(draw: st.DrawFn, verifier: str) -> Case:
    """An answer label alone on its line and the value alone on the last line are one answer
    line (``**Answer:**\\n\\n898``): paid; with another value joined to it, or offered on a line
    before the label: never paid."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    label = draw(st.sampled_from(["**Answer:**", "Answer:", "**Final Answer:**", "**Answer**:",
                                  "\u041e\u0442\u0432\u0435\u0442:", "### Answer:"]))
    gap = draw(st.sampled_from(["\n", "\n\n", "\n \n"]))
    value = draw(st.sampled_from(["{v}", "**{v}**", "${v}$"]))
    kind = draw(st.sampled_from(["plain", "plain", "joined", "before"]))
    shown = value.format(v=g) + (draw(st.sampled_from([" or {o}", ", {o}"])).format(o=o)
                                 if kind == "joined" else "")
    before = f"{o}\n" if kind == "before" else ""
    text = draw(st.sampled_from(REASONING[:3])) + before + label + gap + shown
    return Case(text, str(g), "paid" if kind == "plain" else "not_paid",
                ("r9_label_alone", kind, verifier))


R9_PROPERTIES: list[Property] = [
    Property("r9_math_label_alone", "math", r9_label_alone("math"), 150),
    Property("r9_gsm8k_label_alone", "gsm8k", r9_label_alone("gsm8k"), 150),
    Property("r9_math_native_digits", "math", r9_native_digits("math"), 150),
    Property("r9_gsm8k_native_digits", "gsm8k", r9_native_digits("gsm8k"), 150),
    Property("r9_math_words", "math", r9_math_words(), 100),
    Property("r9_math_choice_option", "math", r9_choice_option(), 100),
    Property("r9_math_label_variants", "math", r9_label_variants("math"), 150),
    Property("r9_gsm8k_label_variants", "gsm8k", r9_label_variants("gsm8k"), 150),
    Property("r9_math_committing_adverb", "math", r9_committing_adverb("math"), 150),
    Property("r9_gsm8k_committing_adverb", "gsm8k", r9_committing_adverb("gsm8k"), 150),
    Property("r9_math_reasoning_block", "math", r9_reasoning_block("math"), 200),
    Property("r9_gsm8k_reasoning_block", "gsm8k", r9_reasoning_block("gsm8k"), 200),
]
ALL_PROPERTIES += R9_PROPERTIES


# ---------------------------------------------------------------------------------------
# Round 10 (issue 30, the blind h28 set)
# ---------------------------------------------------------------------------------------

# Answer sentences of many languages, led by a connective or not, the value glued to a
# copula of its script ("답은 5입니다", "उत्तर 5 है।") or followed by one.
R10_LEADS = ["", "So, ", "\u0418\u0442\u0430\u043a, ", "Donc, ", "\ub530\ub77c\uc11c ", "Ent\u00e3o, "]
R10_SENTENCES = ["\ub2f5\uc740 {v}\uc785\ub2c8\ub2e4.", "\uc815\ub2f5\uc740 {v}\uc785\ub2c8\ub2e4.",
                 "la r\u00e9ponse est {v}.", "\u0909\u0924\u094d\u0924\u0930 {v} \u0939\u0948\u0964",
                 "\u043e\u0442\u0432\u0435\u0442: {v}.", "la respuesta es {v}.",
                 "\u0110\u00e1p \u00e1n l\u00e0 {v}.", "\u7b54\u3048\u306f {v} \u3067\u3059\u3002",
                 "answer: {v}.", "a resposta \u00e9 {v}."]
R10_FINALS = ["\\boxed{{{v}}}", "The answer is {v}.", "Answer: {v}", "La respuesta es {v}.",
              "\ub2f5\uc740 {v}\uc785\ub2c8\ub2e4."]


def _sentence(draw: st.DrawFn, value: int) -> str:
    text = draw(st.sampled_from(R10_LEADS)) + draw(st.sampled_from(R10_SENTENCES)).format(v=value)
    return text[0].upper() + text[1:]


@st.composite
def r10_sentence_answers(draw: st.DrawFn, verifier: str) -> Case:
    """An answer sentence of any language before the final answer, on its line or the line
    before (the paragraph): the same value restated on the line before is paid; another value
    is a second answer,
    never paid. A sentence after the answer sentence on its line does not unsay it."""
    g = draw(st.integers(0, 3000))
    o = draw(st.integers(0, 3000).filter(lambda v: v != g))
    kind = draw(st.sampled_from(["alone", "same", "other", "other", "other_on"]))
    final = draw(st.sampled_from(R10_FINALS)).format(v=g)
    joiner = draw(st.sampled_from([" ", "\n"]))
    if kind == "alone":
        text = _sentence(draw, g)
    elif kind == "same":  # (on one line, a restatement in another script stays refused)
        text = _sentence(draw, g) + "\n" + final
    elif kind == "other":
        text = _sentence(draw, o) + joiner + final
    else:  # the earlier answer's line goes on with a sentence of words
        text = _sentence(draw, o) + " Let me double-check the problem statement." + joiner + final
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g),
                "paid" if kind in ("alone", "same") else "not_paid",
                ("r10_sentence_answers", kind, verifier))


@st.composite
def r10_decimal_comma(draw: st.DrawFn) -> Case:
    """``5,5`` is 5.5 where the comma marks decimals: it never restates 5 (nor pays 5 or the
    digits after the comma). A comma before a group of three digits is a thousands separator:
    ``1,250`` pays 1250."""
    a = draw(st.integers(0, 999))
    thousands = draw(st.booleans())
    if thousands:
        b = f"{draw(st.integers(0, 999)):03d}"
        gold = str(a * 1000 + int(b)) if a else None
    else:
        b = draw(st.sampled_from([str(a), str(a)[:2], f"{draw(st.integers(0, 99))}",
                                  f"{draw(st.integers(1000, 99999))}"]))
        gold = draw(st.sampled_from([str(a), b]))
    if gold is None:  # "0,250" is no thousands group
        gold, thousands, b = str(a), False, str(a)
    form = draw(st.sampled_from(["\\boxed{{{n}}}", "Svar: {n}", "#### {n}", "\u041e\u0442\u0432\u0435\u0442: $x = {n}$",
                                 "The answer is {n}."]))
    return Case(draw(st.sampled_from(REASONING[:3])) + form.format(n=f"{a},{b}"), gold,
                "paid" if thousands else "not_paid", ("r10_decimal_comma", str(thousands)))


@st.composite
def r10_hidden_tag(draw: st.DrawFn) -> Case:
    """A required tag inside an HTML comment never renders (an unclosed ``<!--`` hides the
    rest): never paid. A closed comment between the tags hides no tag: paid."""
    answer = draw(st.sampled_from(["42", "b", "x = 3"]))
    kind = draw(st.sampled_from(["closed_between", "unclosed_before_answer", "inside_answer",
                                 "around_think"]))
    note = draw(st.sampled_from(["", " note ", "<answer>7</answer>"[: draw(st.integers(0, 3))]]))
    if kind == "closed_between":
        text = f"<think>hm</think><!--{note}--><answer>{answer}</answer>"
    elif kind == "unclosed_before_answer":
        text = f"<think>hm</think><!--{note}<answer>{answer}</answer>"
    elif kind == "inside_answer":
        text = f"<think>hm</think><answer>{answer}<!--{note}</answer>"
    else:
        text = f"<!--<think>hm</think>{note}--><answer>{answer}</answer>"
    return Case(text, "", "paid" if kind == "closed_between" else "not_paid",
                ("r10_hidden_tag", kind))


_R10_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)


@st.composite
def r10_run_on_sentence(draw: st.DrawFn, verifier: str) -> Case:
    """A new sentence run on after the answer without its stop (a capital after a space, a
    dash or a line break tag) is read as a later sentence is: words of any kind that are no
    closing prose are never paid (``\\boxed{65} I give up.``, random words); closing prose is
    (``\\boxed{65} Hope this helps!``)."""
    g = draw(st.integers(0, 3000))
    closing = draw(st.booleans())
    if closing:
        tail = draw(st.sampled_from(["Hope this helps!", "Done.", "This matches the expected result.",
                                     "Let me know if you have any questions."]))
    else:
        words = draw(st.lists(_R10_WORD.filter(lambda w: w not in CLOSING_WORDS), min_size=1, max_size=4))
        lead = draw(st.sampled_from(["I", "That number", "This answer", "The problem", ""]))
        tail = " ".join([lead, *words] if lead else words) + draw(st.sampled_from([".", "!", ""]))
        tail = tail[0].upper() + tail[1:]
    joiner = draw(st.sampled_from([" ", " \u2014 ", "<br>", " - "]))
    answer = draw(st.sampled_from(["\\boxed{{{v}}}", "**\\boxed{{{v}}}**", "The answer is $\\boxed{{{v}}}$"]))
    return Case(draw(st.sampled_from(REASONING[:3])) + answer.format(v=g) + joiner + tail, str(g),
                "paid" if closing else "not_paid", ("r10_run_on_sentence", str(closing), verifier))


def _scaled_decimal(scaled: int, places: int) -> str:
    """``scaled / 10**places`` written with ``places`` decimals."""
    return f"{scaled // 10**places}.{scaled % 10**places:0{places}d}"


@st.composite
def r10_finite_decimal(draw: st.DrawFn) -> Case:
    """A gold with a finite decimal expansion is spelled whole: a shorter decimal (truncated
    or rounded, at 12 digits or more) is another value, never paid; the gold's own digits are.
    A gold without one (a third, a seventh) is never paid a decimal, however long (round 11:
    a decimal is the exact number it spells)."""
    kind = draw(st.sampled_from(["short", "short", "whole", "repeating"]))
    if kind == "repeating":
        q = draw(st.sampled_from([3, 7, 9, 11, 13]))
        p = draw(st.integers(1, q - 1))
        digits = draw(st.integers(13, 16))
        shown = _scaled_decimal(round(Fraction(p, q) * 10**digits), digits)
        return Case(f"\\boxed{{{shown}}}", f"\\frac{{{p}}}{{{q}}}", "not_paid", ("r10_finite_decimal", kind))
    whole = draw(st.integers(0, 99))
    decimals = draw(st.text(alphabet="0123456789", min_size=13, max_size=18).filter(lambda d: d[-1] != "0"))
    gold = f"{whole}.{decimals}"
    if kind == "whole":
        shown = gold
    else:
        cut = draw(st.integers(12 - len(str(whole)) if whole else 12, len(decimals) - 1))
        value = Fraction(gold)
        rounded = draw(st.booleans())
        scaled = value * 10**cut
        n = round(scaled) if rounded else scaled.numerator // scaled.denominator
        shown = _scaled_decimal(n, cut)
    form = draw(st.sampled_from(["\\boxed{{{v}}}", "The answer is {v}.", "Final answer: ${v}$"]))
    return Case(form.format(v=shown), gold, "paid" if kind == "whole" else "not_paid",
                ("r10_finite_decimal", kind))


@st.composite
def r10_empty_frame(draw: st.DrawFn) -> Case:
    """An answer tag holding frames and wrappers around nothing (``\\boxed{}``,
    ``\\fbox{\\,}``, ``\\boxed{\\phantom{0}}``, nested) holds no text: never paid; the same
    around a visible value is."""
    visible = draw(st.booleans())
    inner = draw(st.sampled_from(["42", "x", "B"])) if visible else draw(st.sampled_from(
        ["", " ", "\\,", "\\quad", "~", "\u200b", "\\phantom{0}", "{}", "\\text{}", "\U0001d159"]))
    for _ in range(draw(st.integers(1, 12))):  # any depth: a nest of frames is one frame
        inner = draw(st.sampled_from(["\\boxed{{{x}}}", "\\fbox{{{x}}}", "\\framebox{{{x}}}",
                                      "\\mbox{{{x}}}", "\\text{{{x}}}", "{{{x}}}"])).format(x=inner)
    return Case(f"<think>hm</think><answer>{inner}</answer>", "", "paid" if visible else "not_paid",
                ("r10_empty_frame", str(visible)))


@st.composite
def r10_countdown_literal(draw: st.DrawFn) -> Case:
    """A number of the expression written in decimal digits is read; Python's other spellings
    of it (``0o62``, ``0x32``, ``0b110010``, ``5_0``) are not numbers of the answer: never paid."""
    a, b, c = draw(st.lists(st.integers(2, 60), min_size=3, max_size=3))
    spelled = draw(st.sampled_from(["{n}", "{n}", "{o}", "{h}", "{b}", "{u}"]))
    shown = spelled.format(n=c, o=oct(c), h=hex(c), b=bin(c), u=f"{str(c)[0]}_{str(c)[1:]}" if c > 9 else oct(c))
    return Case(f"<answer>({a} + {b}) * {shown}</answer>", str((a + b) * c),
                "paid" if shown == str(c) else "not_paid", ("r10_countdown_literal",), (a, b, c))


@st.composite
def r10_negated_closing(draw: st.DrawFn, verifier: str) -> Case:
    """A closing sentence that negates its verb anywhere before the value (``She doesn't have
    72 dollars.``, ``The sum does not equal 841.``, ``Tom never got 12 minutes.``) denies the
    value: never paid. The same sentence without the negation is paid."""
    g = draw(st.integers(1, 3000))
    negated = draw(st.booleans())
    subject = draw(st.sampled_from(["She", "So she", "Tom", "The sum", "In total, he", "x"]))
    verb = draw(st.sampled_from([("doesn't have", "has"), ("does not have", "has"), ("never got", "got"),
                                 ("does not equal", "equals"), ("hasn't saved", "saved"),
                                 ("won't need", "needs"), ("no longer has", "has"),
                                 ("did not get", "got")]))
    unit = draw(st.sampled_from(["", " dollars", " minutes", " apples"]))
    text = f"{subject} {verb[0] if negated else verb[1]} {g}{unit}."
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "not_paid" if negated else "paid",
                ("r10_negated_closing", str(negated), verifier))


R10_PROPERTIES: list[Property] = [
    Property("r10_math_negated_closing", "math", r10_negated_closing("math"), 150),
    Property("r10_gsm8k_negated_closing", "gsm8k", r10_negated_closing("gsm8k"), 150),
    Property("r10_math_run_on_sentence", "math", r10_run_on_sentence("math"), 150),
    Property("r10_gsm8k_run_on_sentence", "gsm8k", r10_run_on_sentence("gsm8k"), 150),
    Property("r10_math_finite_decimal", "math", r10_finite_decimal(), 150),
    Property("r10_format_empty_frame", "format", r10_empty_frame(), 150),
    Property("r10_countdown_literal", "countdown", r10_countdown_literal(), 100),
    Property("r10_math_sentence_answers", "math", r10_sentence_answers("math"), 200),
    Property("r10_gsm8k_sentence_answers", "gsm8k", r10_sentence_answers("gsm8k"), 200),
    Property("r10_math_decimal_comma", "math", r10_decimal_comma(), 150),
    Property("r10_format_hidden_tag", "format", r10_hidden_tag(), 100),
]
ALL_PROPERTIES += R10_PROPERTIES


# --- round 11 (issue 30): the closing sentence's predicate is read by allow-list ----------

R11_SUBJECTS = ["She", "So she", "Tom", "In total, the store", "Together they", "Maria"]
R11_VERBS = ["has", "earned", "costs", "ran", "is", "needs", "collected", "paid"]
# Phrases before "of" / "by" / "with" that name no amount: a bound, a part, a comparison.
R11_UNREAD_HEADS = ["short of", "shy of", "a maximum of", "a minimum of", "in excess of", "upwards of",
                    "north of", "a fraction of", "a multiple of", "half of", "most of", "ahead by",
                    "beaten by", "behind by", "tied with", "compared with", "off by"]
R11_READ_PHRASES = ["", "exactly ", "a total of ", "only ", "an average of ", "a lifespan of ",
                    "a combined total of ", "just "]


@st.composite
def r11_closing_predicate(draw: st.DrawFn, verifier: str) -> Case:
    """The words between a closing sentence's verb and its value are read by allow-list
    (``verifiers.answer_lead``): "of", "by" and "with" name the amount only after an
    allow-listed word ("a total of", "increased by", "left with"); an "-ly" adverb before the
    verb must be one that leaves it as it is ("only", "finally"); a verb of belief or report
    governs the clause. A phrase the lists do not hold (a random word before "of",
    "falls short of", "hardly has", "thinks she has") is never paid; the read phrases are."""
    g = draw(st.integers(1, 9999))
    subject, verb = draw(st.sampled_from(R11_SUBJECTS)), draw(st.sampled_from(R11_VERBS))
    kind = draw(st.sampled_from(["read", "read", "unread_head", "random_head", "random_ly", "belief"]))
    pre, between = "", draw(st.sampled_from(R11_READ_PHRASES if verb != "is" else ["", "exactly ", "just ", "left with ", "worth "]))
    if kind == "unread_head":
        between = draw(st.sampled_from(R11_UNREAD_HEADS)) + " "
    elif kind == "random_head":  # any word the allow-list does not hold, before of/by/with
        word = draw(st.text("bcdfghjkmnpqrstvwxz", min_size=3, max_size=9))
        between = f"{draw(st.sampled_from(['', 'a ', 'the ']))}{word} {draw(st.sampled_from(['of', 'by', 'with']))} "
    elif kind == "random_ly":
        pre = draw(st.text("bcdfghjkmnpqrstvwxz", min_size=2, max_size=8)) + "ly "
    elif kind == "belief":
        pre = draw(st.sampled_from(["thinks she ", "believes he ", "claims it ", "hopes they ",
                                    "supposedly "]))
    unit = draw(st.sampled_from(["", " dollars", " apples", " miles"]))
    money = "$" if verb in ("costs", "paid") and not unit and draw(st.booleans()) else ""
    text = f"{subject} {pre}{verb} {between}{money}{g}{unit}."
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g),
                "paid" if kind == "read" else "not_paid", ("r11_closing_predicate", kind, verifier))


@st.composite
def r11_symbolic_printout(draw: st.DrawFn) -> Case:
    """A gold written as an expression with a finite decimal expansion (``87+10^{-13}``,
    ``2^2+2^{-50}``) is spelled whole: its value cut to 12-16 decimals (``87.000000000000``)
    is another number, never paid; its exact digits are. A gold without one (``87+\\frac{1}{3}``)
    is never paid a decimal, however long (round 11)."""
    n = draw(st.integers(1, 99))
    kind = draw(st.sampled_from(["cut", "cut", "exact", "repeating"]))
    if kind == "repeating":
        q = draw(st.sampled_from([3, 7, 9, 11]))
        digits = draw(st.integers(13, 15))
        value = n + Fraction(1, q)
        return Case(f"\\boxed{{{_scaled_decimal(round(value * 10**digits), digits)}}}",
                    f"{n}+\\frac{{1}}{{{q}}}", "not_paid", ("r11_symbolic_printout", kind))
    base, power = draw(st.sampled_from([(10, 13), (10, 14), (10, 15), (2, 48), (2, 50)]))
    gold = draw(st.sampled_from([f"{n}+{base}^{{-{power}}}", f"{n}+\\frac{{1}}{{{base}^{{{power}}}}}"]))
    value = n + Fraction(1, base**power)
    if kind == "exact":
        places = len(str(value.denominator)) - 1 if base == 10 else power
        return Case(f"\\boxed{{{_scaled_decimal(int(value * 10**places), places)}}}", gold, "paid",
                    ("r11_symbolic_printout", kind))
    zeros = draw(st.integers(12, 15))
    return Case(f"\\boxed{{{n}.{'0' * zeros}}}", gold, "not_paid", ("r11_symbolic_printout", kind))


@st.composite
def r11_percent(draw: st.DrawFn) -> Case:
    """A percent answer against a gold without one has one reading per gold: the gold's own
    number with the sign dressed on when the gold is a plain number of at least 1 (``25\\%``
    for ``25``), else X of 100 (``40\\%`` for ``\\frac{2}{5}``, ``50\\%`` for ``0.5``).
    The other reading is never paid (``0.75\\%`` for ``\\frac34``, ``5000\\%`` for 50)."""
    kind = draw(st.sampled_from(["plain_int", "fraction", "decimal"]))
    if kind == "plain_int":
        g = Fraction(draw(st.integers(1, 500)))
        gold = str(g)
    else:
        q = draw(st.sampled_from([2, 4, 5, 8, 10, 20, 25]))
        g = Fraction(draw(st.integers(1, q - 1)), q)
        gold = f"\\frac{{{g.numerator}}}{{{g.denominator}}}" if kind == "fraction" else _scaled_decimal(int(g * 1000), 3).rstrip("0")
    right = g if kind == "plain_int" else 100 * g
    shown = draw(st.sampled_from([right, right, g if kind != "plain_int" else 100 * g]))
    number = str(shown.numerator) if shown.denominator == 1 else _scaled_decimal(int(shown * 1000), 3).rstrip("0")
    sign = draw(st.sampled_from(["\\%", "%", "\\text{ percent}"]))
    form = draw(st.sampled_from(["\\boxed{{{v}}}", "The answer is ${v}$.", "So it is {v}."]))
    if sign.startswith("\\") and "$" not in form and "boxed" not in form:
        sign = "%"
    return Case(form.format(v=number + sign), gold, "paid" if shown == right else "not_paid",
                ("r11_percent", kind))


@st.composite
def r11_value_predicate(draw: st.DrawFn, verifier: str) -> Case:
    """After a value, a copula says what the value is: an allow-listed predicate ("is the
    answer", "is correct", "is the number of eggs left") is paid; any other word ("is too
    small", "is an underestimate", a random word) judges or rejects it: never paid."""
    g = draw(st.integers(1, 5000))
    value = draw(st.sampled_from([str(g), f"\\boxed{{{g}}}", f"**{g}**"]))
    kind = draw(st.sampled_from(["read", "judged", "random"]))
    if kind == "read":
        pred = draw(st.sampled_from(["the answer", "correct", "the final answer", "the number of eggs left",
                                     "the total", "my answer", "the smallest such number"]))
    elif kind == "judged":
        pred = draw(st.sampled_from(["too small", "too big", "an underestimate", "a lower bound",
                                     "what a careless student would answer", "a common mistake", "wrong",
                                     "close", "off by one", "a guess"]))
    else:
        pred = draw(st.text("bcdfghjkmnpqrstvwxz", min_size=3, max_size=9))
    copula = draw(st.sampled_from(["is", "was"]))
    text = f"{draw(st.sampled_from(['', 'So ', 'Thus ']))}{value} {copula} {pred}."
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "paid" if kind == "read" else "not_paid",
                ("r11_value_predicate", kind, verifier))


@st.composite
def r11_relation_sign(draw: st.DrawFn, verifier: str) -> Case:
    """A math sign before the closing value relates it ("T ∉ {5}", "x ⊄ 5", "x ≮ 5") or makes
    it an operand ("x + 5", "x × 5"): only "=" and the signs of "therefore" state it. Any
    other sign of Unicode's math blocks: never paid."""
    g = draw(st.integers(1, 5000))
    stating = draw(st.booleans())
    if stating:
        sign = draw(st.sampled_from(["=", "\u21d2", "\u2192", "\u2234"]))
    else:
        sign = draw(st.sampled_from([chr(c) for c in range(0x2200, 0x2300)
                                     if unicodedata.category(chr(c)) == "Sm" and chr(c) not in "\u2234\u2261\u221a\u221b\u221c"]
                                    + ["+", "\u00d7", "\u00f7", "\u00b7", "\u00ac"]))
    # ("+" after a word is a sign: "The change is +5"; after a variable, an operation)
    # (a root sign before the value is the value's root, read by the comparator: "√ 4" is 2)
    subjects = ["x", "T", "n"] if sign in ("+", "\u2212") else ["x", "T", "The sum", "n"]
    text = f"{draw(st.sampled_from(subjects))} {sign} {draw(st.sampled_from(['', '{']))}{g}"
    text += "}" if text.endswith("{" + str(g)) else ""
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "paid" if stating else "not_paid",
                ("r11_relation_sign", "stating" if stating else "other", verifier))


@st.composite
def r11_scale_letter(draw: st.DrawFn) -> Case:
    """A capital letter after a number scales it (``59M`` is 59 million, ``5K`` 5 thousand):
    never paid for the bare number; a lower-case unit (``59 m``, ``59\\text{ cm}``) is dressing."""
    g = draw(st.integers(1, 999))
    scaled = draw(st.booleans())
    suffix = draw(st.sampled_from(["M", "K", "B", "G", "T", "Bn", "Mn"] if scaled else ["m", "cm", "kg", ""]))
    shown = draw(st.sampled_from([f"{g}\\text{{{suffix}}}", f"{g}\\text{{ {suffix}}}", f"{g}\\,\\mathrm{{{suffix}}}"])) if suffix else str(g)
    return Case(f"The answer is $\\boxed{{{shown}}}$.", str(g), "not_paid" if scaled else "paid",
                ("r11_scale_letter", str(scaled)))


@st.composite
def r11_reported_answer(draw: st.DrawFn, verifier: str) -> Case:
    """An answer clause under a verb of report or belief is someone's claim ("My friend says
    the total is 5.", "The book claims the answer is 5."): never paid; the clause alone is."""
    g = draw(st.integers(1, 5000))
    reported = draw(st.booleans())
    who = draw(st.sampled_from(["My friend", "The textbook", "He", "Tom", "The teacher"]))
    verb = draw(st.sampled_from(["says", "said", "claims", "told me", "insists", "thinks", "believes"]))
    clause = f"the {draw(st.sampled_from(['total', 'answer', 'result']))} is {g}."
    text = f"{who} {verb} {clause}" if reported else clause[0].upper() + clause[1:]
    return Case(draw(st.sampled_from(REASONING[:3])) + text, str(g), "not_paid" if reported else "paid",
                ("r11_reported_answer", str(reported), verifier))


@st.composite
def r11_countdown_think_word(draw: st.DrawFn) -> Case:
    """A ``<think>`` block of words and no number before ``<answer>`` offers no expression:
    a right answer is paid (``<think>try</think><answer>6+25+22</answer>``)."""
    a, b, c = draw(st.lists(st.integers(2, 60), min_size=3, max_size=3))
    word = draw(st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10))
    joiner = draw(st.sampled_from(["", "\n", " "]))
    return Case(f"<think>{word}</think>{joiner}<answer>{a}+{b}+{c}</answer>", str(a + b + c), "paid",
                ("r11_countdown_think_word",), (a, b, c))


@st.composite
def r11_cjk_heading(draw: st.DrawFn) -> Case:
    """A section heading of a script without word spaces on the line before the answer
    ("### 最终答案", "**解题步骤**", "## 정답") names a section, never a value: the answer under it
    is paid. A numeral word there ("三十", "二十一") is a value offered beside it: never paid."""
    g = draw(st.integers(1, 99))
    numeral = draw(st.booleans())
    word = draw(st.sampled_from(["三十", "二十一", "十七", "五"])) if numeral else draw(st.sampled_from(
        ["最终答案", "解题步骤", "解答", "总结", "정답", "풀이", "最終的な答え", "答案"]))
    if numeral and {"三十": 30, "二十一": 21, "十七": 17, "五": 5}[word] == g:
        g += 1  # (the numeral restating the answer is one answer: paid)
    heading = draw(st.sampled_from(["### {w}", "**{w}**", "## {w}", "{w}", "### **{w}**"])).format(w=word)
    answer = draw(st.sampled_from(["$\\boxed{{{g}}}$", "所以最终答案为 $\\boxed{{{g}}}$。", "答案是{g}。",
                                   "The answer is {g}."])).format(g=g)
    return Case(draw(st.sampled_from(REASONING[:3])) + f"{heading}\n{answer}", str(g),
                "not_paid" if numeral else "paid", ("r11_cjk_heading", str(numeral)))


@st.composite
def r11_unclosed_think(draw: st.DrawFn, verifier: str) -> Case:
    """A reasoning block that never closes (a rollout cut off while it thought) gave no final
    answer: whatever it says on the way is never paid. Closed, the same completion with its
    answer after the block is paid."""
    g = draw(st.integers(1, 5000))
    tag = draw(st.sampled_from(["think", "thinking", "reasoning"]))
    said = draw(st.sampled_from(["So the answer is {g}.", "\\boxed{{{g}}}", "#### {g}", "It's {g}.",
                                 "<answer>{g}</answer>"])).format(g=g)
    closed = draw(st.booleans())
    text = f"<{tag}>\n{draw(st.sampled_from(REASONING[1:3]))}"
    text += f"</{tag}>\n{said}" if closed else said + draw(st.sampled_from(["", "\n", " Let me double-check"]))
    return Case(text, str(g), "paid" if closed else "not_paid", ("r11_unclosed_think", str(closed), verifier))


@st.composite
def r11_trailing_ellipsis(draw: st.DrawFn, verifier: str) -> Case:
    """A decimal that trails off ("2.718...", "41.46099\\ldots", "5.421…") goes on past its
    digits: never paid for the digits shown; one whose last digits repeat a block ("0.8333...")
    is that repeating decimal, paid for the fraction it spells (math only)."""
    whole = draw(st.integers(0, 99))
    repeating = verifier == "math" and draw(st.booleans())
    mark = draw(st.sampled_from(["...", "\u2026", "\\ldots", "\\dots"]))
    if repeating:
        q = draw(st.sampled_from([3, 6, 9, 11]))
        frac = Fraction(draw(st.integers(1, q - 1)), q)
        while frac.denominator == 1:
            frac = Fraction(1, q)
        period = {3: 1, 6: 1, 9: 1, 11: 2}[q]
        digits = _scaled_decimal(int((whole + frac) * 10 ** (period * 4 + 1)), period * 4 + 1)
        value = whole + frac
        gold = f"\\frac{{{value.numerator}}}{{{value.denominator}}}"
        shown = digits
    else:
        decimals = draw(st.text("0123456789", min_size=3, max_size=6).filter(
            lambda d: d[-1] != "0" and len(set(d[-3:])) > 1))
        shown = gold = f"{whole}.{decimals}"
    if "\\" in mark and verifier == "gsm8k":
        mark = "..."
    form = draw(st.sampled_from(["$\\boxed{{{v}}}$", "The answer is {v}", "#### {v}", "So it is {v}"]))
    text = form.format(v=shown + mark)
    if "\\" in mark and "$" not in form:
        text = form.format(v=f"${shown}{mark}$")
    return Case(text, gold, "paid" if repeating else "not_paid", ("r11_trailing_ellipsis", str(repeating), verifier))


@st.composite
def r11_unrendered_element(draw: st.DrawFn) -> Case:
    """Tags inside an element that never renders (``<style>``, ``<script>``, ``<template>``,
    a ``hidden`` attribute, ``display:none``, ``visibility:hidden``) are never shown: never
    paid; inside an element that renders (``<div>``, ``<span style="color:red">``) they are."""
    hidden = draw(st.booleans())
    opener = draw(st.sampled_from(["<style>", "<script>", "<template>", "<div hidden>", "<p hidden class='x'>",
                                   "<span style=\"display:none\">", "<div style='visibility: hidden'>"]
                                  if hidden else ["<div>", "<span style=\"color:red\">", "<p class='x'>"]))
    name = opener[1:].split(">")[0].split()[0]
    tags = draw(st.sampled_from(["answer", "both"]))
    inner = "<answer>b</answer>" if tags == "answer" else "<think>a</think>\n<answer>b</answer>"
    text = f"{opener}{inner}</{name}>" if tags == "both" else f"<think>a</think>\n{opener}{inner}</{name}>"
    return Case(text, "", "not_paid" if hidden else "paid", ("r11_unrendered_element", str(hidden)))


@st.composite
def r11_money_gold(draw: st.DrawFn) -> Case:
    """A gold written ``$64`` (one dollar sign, no closing one) is money: another currency
    (``€64``, ``64 £``, ``64 ¥``) is another amount, never paid; the bare number and the dollar
    amount are."""
    g = draw(st.integers(1, 10**6))
    other = draw(st.booleans())
    shown = draw(st.sampled_from([f"\u20ac{g}", f"{g} \u00a3", f"\u00a5{g}", f"{g} euros"] if other
                                 else [str(g), f"\\${g}", f"{g} dollars"]))
    form = draw(st.sampled_from(["\\boxed{{{v}}}", "The answer is {v}."]))
    return Case(form.format(v=shown), f"${g}", "not_paid" if other else "paid", ("r11_money_gold", str(other)))


@st.composite
def r11_countdown_boxed(draw: st.DrawFn) -> Case:
    """A box that frames the whole expression inside ``<answer>`` is a frame: the expression
    in it is read (``<answer>\\boxed{27 \\cdot 20 + 26}</answer>``), and a wrong one is still
    wrong."""
    a, b, c = draw(st.lists(st.integers(2, 60), min_size=3, max_size=3))
    op = draw(st.sampled_from(["\\cdot", "\\times", "*"]))
    wrong = draw(st.booleans())
    shown_c = c + 1 if wrong else c
    text = f"<answer>\\boxed{{{a} {op} {b} + {shown_c}}}</answer>"
    return Case(text, str(a * b + c), "not_paid" if wrong else "paid", ("r11_countdown_boxed", str(wrong)), (a, b, c))


@st.composite
def r11_step_headings(draw: st.DrawFn, verifier: str) -> Case:
    """A numbered part of the working ("**Step 1.** Set up.", "Case 2: n is odd", "Part 3")
    names a part, not an answer: the answer after the steps is paid. "Total 6" on its line
    still offers 6: never paid beside another answer."""
    g = draw(st.integers(7, 5000))
    offered = draw(st.booleans())
    word = draw(st.sampled_from(["Step", "Case", "Part", "Stage", "Method"]))
    style = draw(st.sampled_from(["**{w} {n}.** {t}", "{w} {n}. {t}", "**{w} {n}:** {t}", "### {w} {n}\n{t}"]))
    lines = [style.format(w=word, n=n, t=draw(st.sampled_from(["Set up.", "Solve it.", "Add the parts."])))
             for n in range(1, draw(st.integers(2, 4)))]
    if offered:
        lines.append(f"Total {g - 1}")
    lines.append(draw(st.sampled_from(["The answer is {g}.", "$\\boxed{{{g}}}$", "#### {g}"])).format(g=g))
    return Case("\n".join(lines), str(g), "not_paid" if offered else "paid",
                ("r11_step_headings", str(offered), verifier))


@st.composite
def r11_check_line(draw: st.DrawFn, verifier: str) -> Case:
    """A last line that checks the working ("Check: 174 + 3 = 177 ✓") verifies the value stated
    before it and states none of its own: a wrong value stated in prose is never paid however
    its check ends; a right one is paid, and so is a committed answer whose check computes from
    it back to a given number ("The answer is 392.\\n\\nCheck: 392 - 204 = 188 ✓")."""
    g = draw(st.integers(20, 5000))
    d = draw(st.integers(1, 19))
    kind = draw(st.sampled_from(["wrong_stated", "right_stated", "checked_back"]))
    mark = draw(st.sampled_from(["Check: ", "Verification: ", "\u2713 ", "**Check:** ", "Double-check: "]))
    tick = draw(st.sampled_from([" \u2713", "", " \u2714"]))
    if kind == "wrong_stated":
        body = f"In total she has {g - d} apples.\n{mark}{g - d} + {d} = {g}{tick}"
    elif kind == "right_stated":
        body = f"In total she has {g} apples.\n{mark}{g - d} + {d} = {g}{tick}"
    else:
        body = f"The answer is {g}.\n\n{mark}{g} - {d} = {g - d}{tick}"
    return Case(draw(st.sampled_from(REASONING[:3])) + body, str(g),
                "not_paid" if kind == "wrong_stated" else "paid", ("r11_check_line", kind, verifier))


@st.composite
def r11_help_question(draw: st.DrawFn, verifier: str) -> Case:
    """A question back that offers help ("Is there anything else I can help with?", "Does
    that help?") asks nothing of the answer: paid. A question about the answer left
    unanswered ("Is that right?") doubts it: never paid."""
    g = draw(st.integers(1, 5000))
    helps = draw(st.booleans())
    question = draw(st.sampled_from(["Is there anything else I can help with?", "Does that help?",
                                     "Can I help with anything else?", "Do you have any other questions?"]
                                    if helps else ["Is that right?", "Is that correct?", "Does that seem right?"]))
    answer = draw(st.sampled_from(["The answer is {g}.", "$\\boxed{{{g}}}$", "**Answer: {g}**"])).format(g=g)
    # (an answer run on into a question without a stop is the question's own sentence)
    joiner = draw(st.sampled_from([" ", "\n\n"])) if answer.endswith(".") else "\n\n"
    return Case(draw(st.sampled_from(REASONING[:3])) + answer + joiner + question, str(g),
                "paid" if helps else "not_paid", ("r11_help_question", str(helps), verifier))


R11_PROPERTIES: list[Property] = [
    Property("r11_math_check_line", "math", r11_check_line("math"), 100),
    Property("r11_gsm8k_check_line", "gsm8k", r11_check_line("gsm8k"), 100),
    Property("r11_math_help_question", "math", r11_help_question("math"), 100),
    Property("r11_gsm8k_help_question", "gsm8k", r11_help_question("gsm8k"), 100),
    Property("r11_math_trailing_ellipsis", "math", r11_trailing_ellipsis("math"), 150),
    Property("r11_gsm8k_trailing_ellipsis", "gsm8k", r11_trailing_ellipsis("gsm8k"), 100),
    Property("r11_format_unrendered_element", "format", r11_unrendered_element(), 100),
    Property("r11_math_money_gold", "math", r11_money_gold(), 100),
    Property("r11_countdown_boxed", "countdown", r11_countdown_boxed(), 100),
    Property("r11_math_step_headings", "math", r11_step_headings("math"), 100),
    Property("r11_gsm8k_step_headings", "gsm8k", r11_step_headings("gsm8k"), 100),
    Property("r11_math_unclosed_think", "math", r11_unclosed_think("math"), 100),
    Property("r11_gsm8k_unclosed_think", "gsm8k", r11_unclosed_think("gsm8k"), 100),
    Property("r11_math_cjk_heading", "math", r11_cjk_heading(), 100),
    Property("r11_math_percent", "math", r11_percent(), 150),
    Property("r11_math_value_predicate", "math", r11_value_predicate("math"), 150),
    Property("r11_gsm8k_value_predicate", "gsm8k", r11_value_predicate("gsm8k"), 150),
    Property("r11_math_relation_sign", "math", r11_relation_sign("math"), 150),
    Property("r11_gsm8k_relation_sign", "gsm8k", r11_relation_sign("gsm8k"), 150),
    Property("r11_math_scale_letter", "math", r11_scale_letter(), 100),
    Property("r11_math_reported_answer", "math", r11_reported_answer("math"), 100),
    Property("r11_gsm8k_reported_answer", "gsm8k", r11_reported_answer("gsm8k"), 100),
    Property("r11_countdown_think_word", "countdown", r11_countdown_think_word(), 100),
    Property("r11_math_symbolic_printout", "math", r11_symbolic_printout(), 100),
    Property("r11_math_closing_predicate", "math", r11_closing_predicate("math"), 200),
    Property("r11_gsm8k_closing_predicate", "gsm8k", r11_closing_predicate("gsm8k"), 200),
]
ALL_PROPERTIES += R11_PROPERTIES


# ---------------------------------------------------------------------------------------
# Round 12 (blind h36 on real MATH-500 and GSM8K golds)
# ---------------------------------------------------------------------------------------


@st.composite
def r12_empty_block(draw: st.DrawFn) -> Case:
    """An ``<answer>`` of Markdown block markers only renders no text: an empty list item
    (``-``, ``+ ``), an empty blockquote (``> >``), a thematic break (``---``, ``- - -``), on
    one line or several: never paid. The same markers before a value are paid."""
    lines = draw(st.lists(st.sampled_from(["-", "+ ", ">", "> >", "- - -", "---", "* ", "> -", "  -  "]),
                          min_size=1, max_size=3))
    value = draw(st.sampled_from([None, "5", "x", "ok", "-7"]))
    if value is not None:
        lines[-1] = f"{lines[-1].rstrip()} {value}"
    body = "\n".join(lines)
    return Case(f"<think>work</think>\n<answer>{body}</answer>", "", "not_paid" if value is None else "paid",
                ("r12_empty_block", str(value is None)))


@st.composite
def r12_impossible_numeral(draw: st.DrawFn) -> Case:
    """Decimal digits under a base subscript they do not fit (``27_{7}``, ``4_4``) are no
    numeral at all: never paid for the gold the digits spell; the same digits in base 10
    are."""
    base = draw(st.integers(2, 9))
    digits = draw(st.lists(st.integers(0, 9), min_size=1, max_size=4))
    if max(digits) < base:
        digits[draw(st.integers(0, len(digits) - 1))] = draw(st.integers(base, 9))
    if digits[0] == 0:
        digits[0] = 9
    n = "".join(map(str, digits))
    valid = draw(st.booleans())
    sub = draw(st.sampled_from(["_{{{b}}}", "_{b}"])).format(b=10 if valid else base)
    return Case(f"So the answer is $\\boxed{{{n}{sub}}}$.", n, "paid" if valid else "not_paid",
                ("r12_impossible_numeral", str(valid)))


@st.composite
def r12_choice_half_bracket(draw: st.DrawFn) -> Case:
    """A choice letter written with a closing bracket only (``\\boxed{A)}``) is that letter,
    against a gold written ``(A)``, ``A`` or ``\\text{(A)}``; another letter never pays."""
    letter = draw(st.sampled_from("ABCDE"))
    gold = draw(st.sampled_from(["({})", "{}", "\\text{{({})}}", "\\textbf{{({})}}"])).format(letter)
    right = draw(st.booleans())
    shown = letter if right else "ABCDE"[("ABCDE".index(letter) + draw(st.integers(1, 4))) % 5]
    form = draw(st.sampled_from(["$\\boxed{{{v})}}$", "The answer is {v}).", "**Answer: {v})**"]))
    return Case(form.format(v=shown), gold, "paid" if right else "not_paid", ("r12_choice_half_bracket", str(right)))


@st.composite
def r12_variable_term(draw: st.DrawFn, verifier: str) -> Case:
    """A labelled line of algebraic working whose value is a term in a variable (``Becca:
    3x+12``, ``Smendrick: 3x``, ``Nickels: 2n``) offers no value: the answer after it is paid.
    The same line with a lone number, or an answer label before the term (``Answer: 3x``),
    offers one: never paid beside another answer."""
    g = draw(st.integers(20, 5000))
    k = draw(st.integers(2, 9))
    var = draw(st.sampled_from("xyzn"))
    name = draw(st.sampled_from(["Smendrick", "Becca", "Nickels", "Tom", "Dimes", "Second box"]))
    kind = draw(st.sampled_from(["term", "term", "lone_number", "answer_term"]))
    if kind == "term":
        lines = [f"{name}:{draw(st.sampled_from([' ', '']))}{k}{var}",
                 f"Total: {k}{var} + {var} = {g}"]
    elif kind == "lone_number":
        lines = [f"{name}: {k}", "Adding everything up gives the total."]
    else:
        lines = [f"Answer: {k}{var}", "Adding everything up gives the total."]
    lines.append(draw(st.sampled_from(["The answer is {g}.", "#### {g}", "$\\boxed{{{g}}}$"])).format(g=g))
    return Case("\n".join(lines), str(g), "paid" if kind == "term" else "not_paid",
                ("r12_variable_term", kind, verifier))


@st.composite
def r12_negated_equals(draw: st.DrawFn, verifier: str) -> Case:
    """``\\not=`` before the value (``\\boxed{\\not= 5}``, ``$\\not\\ = 5$``) says it is not
    the value: never paid; ``x = 5`` states it and is."""
    g = draw(st.integers(1, 5000))
    negated = draw(st.booleans())
    rel = draw(st.sampled_from(["\\not=", "\\not =", "\\not\\ ="])) if negated else "x ="
    form = draw(st.sampled_from(["$\\boxed{{{r} {g}}}$", "The answer is ${r} {g}$.", "<answer>{r} {g}</answer>"]))
    return Case(form.format(r=rel, g=g), str(g), "not_paid" if negated else "paid", ("r12_negated_equals", str(negated), verifier))


@st.composite
def r12_comment_value(draw: st.DrawFn) -> Case:
    """A TeX ``%`` that opens a math span or a group's content comments out the rest of its
    line (``$%7$``, ``\\boxed{%5}``): a value there does not render, never paid; ``5\\%`` and
    ``$7$`` are."""
    g = draw(st.integers(1, 5000))
    hidden = draw(st.booleans())
    form = draw(st.sampled_from(["The answer is ${p}{g}$.", "Answer: ${p}{g}$", "\\boxed{{{p}{g}}}"]))
    prefix = draw(st.sampled_from(["%", "% ", " %"])) if hidden else ""
    return Case(form.format(p=prefix, g=g), str(g), "not_paid" if hidden else "paid", ("r12_comment_value", str(hidden)))


_R12_UNITS = [("g", "kg"), ("minutes", "hours"), ("feet", "inches"), ("cm", "m"), ("dollars", "cents")]


@st.composite
def r12_unit_last_number(draw: st.DrawFn) -> Case:
    """An unboxed last number read with the unit that ends its sentence (``Thus the length is
    36 kg``): against a gold in another unit (``36 \\text{ g}``) never paid; in the gold's unit,
    or with no unit, paid."""
    g = draw(st.integers(2, 5000))
    gold_unit, other = draw(st.sampled_from(_R12_UNITS))
    kind = draw(st.sampled_from(["other", "same", "none"]))
    unit = {"other": other, "same": gold_unit, "none": ""}[kind]
    shown = f"{g} {unit}".strip()
    text = draw(st.sampled_from(["Thus the amount is {v}", "So we get {v}.", "{v}"])).format(v=shown)
    return Case(text, f"{g} \\text{{ {gold_unit}}}", "not_paid" if kind == "other" else "paid",
                ("r12_unit_last_number", kind))


@st.composite
def r12_percent_units(draw: st.DrawFn) -> Case:
    """A percent gold is a unit of its own: a dollar amount, degrees or a length with its number
    (``\\$5``, ``40^\\circ``, ``75 \\text{ cm}``) is never paid; ``5\\%``, ``5 percent`` and
    ``0.05`` are."""
    g = draw(st.integers(1, 99))
    other = draw(st.booleans())
    shown = draw(st.sampled_from([f"\\${g}", f"{g}^\\circ", f"{g} \\text{{ cm}}", f"{g} \\text{{ dollars}}"] if other
                                 else [f"{g}\\%", f"{g} \\text{{ percent}}", f"{g}"]))
    return Case(f"So the answer is $\\boxed{{{shown}}}$.", f"{g}\\%", "not_paid" if other else "paid",
                ("r12_percent_units", str(other)))


@st.composite
def r12_stated_then_condition(draw: st.DrawFn, verifier: str) -> Case:
    """A closing sentence that states a value, then gives a variable the gold as a condition
    (``The speed is 17 m/s at t = 7 s.``, ``Result: 8 at t = 7``) answers with the stated
    value: never paid for the condition's; ``so t = 7.`` after a computation is."""
    g = draw(st.integers(2, 5000))
    w = g + draw(st.integers(1, 50))
    var = draw(st.sampled_from("txn"))
    stated = draw(st.booleans())
    if stated:
        text = draw(st.sampled_from(["Therefore the speed is {w} m/s at {v} = {g} s.", "Result: {w} at {v} = {g}",
                                     "Hence the required value is {w}, attained at {v} = {g}."]))
    else:
        text = draw(st.sampled_from(["Dividing both sides by 4, we get {v} = {g}.", "So {v} = {g}.",
                                     "The speed is {g} m/s at {v} = {g}."]))
    return Case(text.format(w=w, g=g, v=var), str(g), "not_paid" if stated else "paid",
                ("r12_stated_then_condition", str(stated), verifier))


@st.composite
def r12_list_joiner(draw: st.DrawFn, verifier: str) -> Case:
    """A number that a joiner follows at a line's start (``79. OR 72``, ``8. Also 7``) is a
    value offered, whatever renders it as a list's number: never paid. A list item's number
    before a committed answer (``1. The answer is 72``) is no value: paid."""
    g = draw(st.integers(10, 99))
    w = draw(st.integers(10, 99).filter(lambda x: x != g))
    joined = draw(st.booleans())
    if joined:
        text = f"{w}. {draw(st.sampled_from(['OR', 'Or', 'or', 'Also', 'Alternatively']))} {g}"
    else:
        text = draw(st.sampled_from(["1. The answer is {g}.", "1. Answer: {g}", "2. The final answer is {g}."])).format(g=g)
    return Case(draw(st.sampled_from(["", "Some working.\n"])) + text, str(g), "not_paid" if joined else "paid",
                ("r12_list_joiner", str(joined), verifier))


@st.composite
def r12_abbreviation(draw: st.DrawFn, verifier: str) -> Case:
    """An abbreviation's stop (``i.e.``, ``e.g.``, ``a.k.a.``) ends no sentence: ``6 i.e. 5``
    offers 6 beside 5, never paid."""
    g = draw(st.integers(1, 5000))
    w = g + draw(st.integers(1, 50))
    abbr = draw(st.sampled_from(["i.e.", "e.g.", "a.k.a.", "viz."]))
    text = draw(st.sampled_from(["{w} {a} {g}", "We get {w} {a} {g}", "So it is {w} {a} {g}."])).format(w=w, a=abbr, g=g)
    return Case(text, str(g), "not_paid", ("r12_abbreviation", abbr, verifier))


@st.composite
def r12_assignment_then_bare(draw: st.DrawFn, verifier: str) -> Case:
    """A bare closing value (no word in its sentence) after a variable given another value
    (``x=6. 5``, ``x = 6\\n5``) does not follow from it: never paid. When the variable is used
    on (``x = 6\\ny = 2x - 7 = 5\\n5``) it is a step: paid."""
    g = draw(st.integers(1, 500))
    w = g + draw(st.integers(1, 50))
    var = draw(st.sampled_from("xyn"))
    step = draw(st.booleans())
    if step:
        text = f"{var} = {w}\nz = {var} - {w - g} = {g}\n{g}"
    else:
        text = draw(st.sampled_from(["{v}={w}. {g}", "{v} = {w}.\n{g}", "So {v} = {w}. {g}"])).format(v=var, w=w, g=g)
    return Case(text, str(g), "paid" if step else "not_paid", ("r12_assignment_then_bare", str(step), verifier))


@st.composite
def r12_json_answer(draw: st.DrawFn, verifier: str) -> Case:
    """A JSON object that ends the completion names its answer (``{"answer": 72}``, fenced or
    not, with a confidence or the reasoning beside it): paid when that is the gold. Another
    key holding a number (``"alternative": 6``), two answer keys that differ, or a wrong
    answer: never paid."""
    g = draw(st.integers(1, 5000))
    w = g + draw(st.integers(1, 50))
    kind = draw(st.sampled_from(["right", "right", "wrong", "other_key", "two_answers"]))
    members = {"right": [f'"answer": {g}'], "wrong": [f'"answer": {w}'], "other_key": [f'"answer": {g}', f'"alternative": {w}'],
               "two_answers": [f'"answer": {g}', f'"final_answer": "{w}"']}[kind]
    if draw(st.booleans()):
        # (working that ends on another value offers it beside the answer: round 13 reads an
        # object's members side by side, so the working here computes the answer itself)
        members.insert(0, draw(st.sampled_from([f'"reasoning": "{g} * 1 = {g}"', '"confidence": 0.9', '"explanation": "add them"'])))
    obj = "{" + ", ".join(members) + "}"
    if draw(st.booleans()):
        obj = "```json\n" + obj + "\n```"
    return Case(draw(st.sampled_from(["", "Let me work it out.\n\n"])) + obj, str(g), "paid" if kind == "right" else "not_paid",
                ("r12_json_answer", kind, verifier))


@st.composite
def r12_styled_answer(draw: st.DrawFn) -> Case:
    """An underline or a shown colour around the whole boxed answer is dressing
    (``\\boxed{\\underline{150}}``, ``\\color{blue}{150}``): paid for the right value, never
    for another."""
    g = draw(st.integers(1, 5000))
    right = draw(st.booleans())
    v = g if right else g + draw(st.integers(1, 50))
    style = draw(st.sampled_from(["\\underline{{{v}}}", "\\color{{blue}}{{{v}}}", "\\textcolor{{red}}{{{v}}}",
                                  "{{\\color{{blue}}{v}}}", "\\color{{green}} {v}"]))
    return Case(f"So the answer is $\\boxed{{{style.format(v=v)}}}$.", str(g), "paid" if right else "not_paid",
                ("r12_styled_answer", str(right)))


@st.composite
def r12_unit_words(draw: st.DrawFn, verifier: str) -> Case:
    """After a number, ``min`` is minutes and ``yuan``, ``pesos`` are currencies (``#### 72
    min``, ``The answer is 36 yuan.``): paid; ``minimum`` after it still bounds the value."""
    g = draw(st.integers(1, 5000))
    bound = draw(st.booleans())
    unit = draw(st.sampled_from(["minimum", "or more"])) if bound else draw(st.sampled_from(["min", "mins", "yuan", "pesos", "rubles"]))
    text = draw(st.sampled_from(["#### {g} {u}", "The answer is {g} {u}.", "It takes {g} {u}."])).format(g=g, u=unit)
    return Case(text, str(g), "not_paid" if bound else "paid", ("r12_unit_words", str(bound), verifier))


@st.composite
def r12_unit_equated(draw: st.DrawFn, verifier: str) -> Case:
    """An amount in the answer's own unit equated to a different amount (``She has 5 gallons
    = 6 gallons.``) offers both: never paid. A sum in one unit (``15 gallons + 12 gallons = 27
    gallons``) and a conversion (``2 hours = 120 minutes``) are paid."""
    g = draw(st.integers(20, 5000))
    unit = draw(st.sampled_from(["gallons", "apples", "minutes", "dollars", "pages"]))
    kind = draw(st.sampled_from(["equated", "sum", "sum"]))
    if kind == "equated":
        text = f"So she has {g - draw(st.integers(1, 19))} {unit} = {g} {unit}."
    else:
        a = draw(st.integers(1, g - 1))
        text = f"In total she has {a} {unit} + {g - a} {unit} = {g} {unit}."
    return Case(text, str(g), "not_paid" if kind == "equated" else "paid", ("r12_unit_equated", kind, verifier))


@st.composite
def r12_format_placeholder(draw: st.DrawFn) -> Case:
    """Dots, an ellipsis, dashes or question marks alone (``<answer>...</answer>``,
    ``<answer>\u2026</answer>``) are a placeholder, no text: never paid; a word or a value with
    them is."""
    mark = draw(st.sampled_from(["...", "\u2026", "?", "--", "? ? ?", ". . .", "\u2014", "!?"]))
    value = draw(st.sampled_from([None, "5", "x", "ok"]))
    body = mark if value is None else f"{value}{mark}"
    return Case(f"<think>reasoning</think>\n<answer>{body}</answer>", "", "not_paid" if value is None else "paid",
                ("r12_format_placeholder", str(value is None)))


@st.composite
def r12_confidence(draw: st.DrawFn, verifier: str) -> Case:
    """A confidence stated after the answer (``Confidence: 0.9``, ``(confidence: 90%)``,
    ``<confidence>0.8</confidence>``) says how sure the answer is, never a second answer: paid.
    Another value after the confidence still is one: never paid."""
    g = draw(st.integers(1, 5000))
    conf = draw(st.sampled_from(["\nConfidence: 0.9", " (confidence: 90%)", "\n**Confidence:** 85%",
                                 "<confidence>0.8</confidence>", "\nconfidence = 0.75"]))
    answer = draw(st.sampled_from(["Answer: {g}", "$\\boxed{{{g}}}$", "<answer>{g}</answer>", "#### {g}"])).format(g=g)
    if conf.startswith("<") and not answer.startswith("<"):
        conf = "\n" + conf
    other = draw(st.booleans())
    tail = f"\nOr {g + 1}" if other else ""
    return Case(answer + conf + tail, str(g), "not_paid" if other else "paid", ("r12_confidence", str(other), verifier))


@st.composite
def r12_json_members(draw: st.DrawFn, verifier: str) -> Case:
    """A JSON answer's other members are read (h37): a repeated answer key with another value,
    a unit member that is not the gold's, or a working member that offers another value
    ("maybe W", "alternatively W", "the answer is W") is never paid; working whose values are
    steps, and one wrapping object ({"result": {"answer": G}}), are paid."""
    g = draw(st.integers(20, 5000))
    w = g + draw(st.integers(1, 19))
    kind = draw(st.sampled_from(["duplicate", "prose_offer", "working", "working", "wrapped"]))
    if kind == "duplicate":
        obj = f'{{"answer": {w}, "answer": {g}}}'
    elif kind == "prose_offer":
        note = draw(st.sampled_from([f"maybe {w}", f"alternatively {w}", f"The answer is {w}.", f"\\\\boxed{{{w}}}"]))
        key = draw(st.sampled_from(["reasoning", "explanation", "notes", "thoughts", "work"]))
        obj = f'{{"{key}": "{note}", "answer": {g}}}'
    elif kind == "working":
        a = draw(st.integers(1, g - 1))
        key = draw(st.sampled_from(["reasoning", "explanation", "steps"]))
        text = f'"{a} + {g - a} = {g}"' if key != "steps" else f'["{a} + {g - a} = {g}"]'
        obj = f'{{"{key}": {text}, "answer": {g}}}'
    else:
        obj = f'{{"result": {{"answer": {g}}}}}'
    return Case(obj, str(g), "paid" if kind in ("working", "wrapped") else "not_paid", ("r12_json_members", kind, verifier))


@st.composite
def r12_json_unit(draw: st.DrawFn) -> Case:
    """A JSON answer's unit member is the answer's unit: another unit than the gold's is
    another amount (never paid), the gold's unit is paid."""
    g = draw(st.integers(1, 5000))
    gold_unit, other = draw(st.sampled_from(_R12_UNITS))
    same = draw(st.booleans())
    key = draw(st.sampled_from(["unit", "units", "unit_of_measure"]))
    obj = f'{{"answer": {g}, "{key}": "{gold_unit if same else other}"}}'
    return Case(obj, f"{g} \\text{{ {gold_unit}}}", "paid" if same else "not_paid", ("r12_json_unit", str(same)))


@st.composite
def r12_closing_tails(draw: st.DrawFn, verifier: str) -> Case:
    """h37's closing shapes: a confidence on the answer's own line is no second value (paid); a
    numbered list that ends in an empty item (``...\\n2. 34*2=68\\n3.``) offers no answer, and a
    bare value after a paragraph that states another (``So the total is 354.\\n\\n351.``) is a
    second answer: never paid."""
    g = draw(st.integers(3, 9))
    kind = draw(st.sampled_from(["confidence", "empty_item", "restated_other", "restated_same"]))
    if kind == "confidence":
        text = draw(st.sampled_from(["The answer is {g}. Confidence: 0.9", "So she has {g} apples. Confidence: 90%",
                                     "Final answer: {g}. \u2014 Confidence level: high"])).format(g=g)
    elif kind == "empty_item":
        text = "Steps:\n" + "\n".join(f"{k}. {k + 10} + {k} = {2 * k + 10}" for k in range(1, g)) + f"\n{g}."
    else:
        stated = g if kind == "restated_same" else g + 40
        text = f"So the total is {stated}.\n\n{g}."
    return Case(text, str(g), "paid" if kind in ("confidence", "restated_same") else "not_paid",
                ("r12_closing_tails", kind, verifier))


R12_PROPERTIES: list[Property] = [
    Property("r12_format_empty_block", "format", r12_empty_block(), 150),
    Property("r12_math_impossible_numeral", "math", r12_impossible_numeral(), 100),
    Property("r12_math_choice_half_bracket", "math", r12_choice_half_bracket(), 100),
    Property("r12_math_variable_term", "math", r12_variable_term("math"), 100),
    Property("r12_gsm8k_variable_term", "gsm8k", r12_variable_term("gsm8k"), 100),
    Property("r12_math_negated_equals", "math", r12_negated_equals("math"), 100),
    Property("r12_math_comment_value", "math", r12_comment_value(), 100),
    Property("r12_math_unit_last_number", "math", r12_unit_last_number(), 100),
    Property("r12_math_percent_units", "math", r12_percent_units(), 100),
    Property("r12_math_stated_then_condition", "math", r12_stated_then_condition("math"), 100),
    Property("r12_gsm8k_stated_then_condition", "gsm8k", r12_stated_then_condition("gsm8k"), 100),
    Property("r12_math_list_joiner", "math", r12_list_joiner("math"), 100),
    Property("r12_gsm8k_list_joiner", "gsm8k", r12_list_joiner("gsm8k"), 100),
    Property("r12_math_abbreviation", "math", r12_abbreviation("math"), 100),
    Property("r12_gsm8k_abbreviation", "gsm8k", r12_abbreviation("gsm8k"), 100),
    Property("r12_math_assignment_then_bare", "math", r12_assignment_then_bare("math"), 100),
    Property("r12_gsm8k_assignment_then_bare", "gsm8k", r12_assignment_then_bare("gsm8k"), 100),
    Property("r12_math_json_answer", "math", r12_json_answer("math"), 150),
    Property("r12_gsm8k_json_answer", "gsm8k", r12_json_answer("gsm8k"), 100),
    Property("r12_math_styled_answer", "math", r12_styled_answer(), 100),
    Property("r12_math_unit_words", "math", r12_unit_words("math"), 100),
    Property("r12_gsm8k_unit_words", "gsm8k", r12_unit_words("gsm8k"), 100),
    Property("r12_math_unit_equated", "math", r12_unit_equated("math"), 100),
    Property("r12_gsm8k_unit_equated", "gsm8k", r12_unit_equated("gsm8k"), 100),
    Property("r12_format_placeholder", "format", r12_format_placeholder(), 100),
    Property("r12_math_confidence", "math", r12_confidence("math"), 100),
    Property("r12_gsm8k_confidence", "gsm8k", r12_confidence("gsm8k"), 100),
    Property("r12_math_json_members", "math", r12_json_members("math"), 150),
    Property("r12_gsm8k_json_members", "gsm8k", r12_json_members("gsm8k"), 100),
    Property("r12_math_json_unit", "math", r12_json_unit(), 100),
    Property("r12_math_closing_tails", "math", r12_closing_tails("math"), 100),
    Property("r12_gsm8k_closing_tails", "gsm8k", r12_closing_tails("gsm8k"), 100),
]
ALL_PROPERTIES += R12_PROPERTIES


# --- round 13 (issue 30: the blind h39/h40 sets, and round 12's leftovers) ---


@st.composite
def r13_json_side_member(draw: st.DrawFn, verifier: str) -> Case:
    """A JSON object's members stand side by side: a commentary member that ends by hedging
    between the answer and another value, or by saying the value is actually another
    (``"justification": "I am unsure between G and W"``, ``"2+3 = G, but actually it is W"``),
    offers W beside the answer: never paid, in either member order. A member that only explains
    G is paid. (One that names W first and ends on G, "unsure between W and G", reads as working
    that settles on G, as in prose: not generated.)"""
    g = draw(st.integers(20, 5000))
    w = g + draw(st.integers(1, 19)) * draw(st.sampled_from([1, -1]))
    kind = draw(st.sampled_from(["hedge", "hedge", "explains"]))
    if kind == "hedge":
        note = draw(st.sampled_from(["I am unsure between {g} and {w}", "2+3 = {g}, but actually it is {w}",
                                     "it could also be {w}", "{g} or possibly {w}", "somewhere between {g} and {w}",
                                     "I think {g}; Bob thinks {w}"]))
        note = note.format(g=g, w=w)
    else:
        x = draw(st.integers(1, g - 1))
        note = draw(st.sampled_from(["{x} + {y} = {g}", "adding {x} and {y} gives {g}", "the sum is {g}"])).format(x=x, y=g - x, g=g)
    key = draw(st.sampled_from(["justification", "explanation", "comment", "notes", "reasoning"]))
    members = [f'"answer": {g}', f'"{key}": "{note}"']
    if draw(st.booleans()):
        members.reverse()
    if draw(st.booleans()):
        members.append('"confidence": 0.6')
    return Case("{" + ", ".join(members) + "}", str(g), "paid" if kind == "explains" else "not_paid",
                ("r13_json_side_member", kind, verifier))


@st.composite
def r13_json_exponent(draw: st.DrawFn, verifier: str) -> Case:
    """A JSON number with an exponent is that number (``{"answer": 668e0}`` is 668, ``1.5E3``
    1500): paid when it equals the gold, never when it does not."""
    g = draw(st.integers(1, 5000))
    exp = draw(st.integers(0, 3))
    right = draw(st.booleans())
    v = g if right else g + draw(st.integers(1, 9))
    mantissa = f"{v / 10 ** exp:.{exp}f}" if exp else str(v)
    e = draw(st.sampled_from(["e", "E", "e+"]))
    return Case(f'{{"answer": {mantissa}{e}{exp}}}', str(g), "paid" if right else "not_paid",
                ("r13_json_exponent", str(right), verifier))



_R13_UNITS = [("m", "km"), ("cm", "m"), ("kg", "g"), ("hours", "minutes"), ("dollars", "cents"), ("m", "m^2"),
              ("cm^2", "cm"), ("feet", "inches")]


@st.composite
def r13_unit_after_box(draw: st.DrawFn) -> Case:
    """A unit written right after the box (``\\boxed{12}\\text{ km}``, ``$\\boxed{15}$ cents``,
    ``\\boxed{9368}\\,\\mathrm{m}^2``, ``\\boxed{12} km.``) is the answer's unit: another unit
    than the gold's is another amount (never paid); the gold's own unit, or no unit, is paid."""
    g = draw(st.integers(1, 5000))
    gold_unit, other = draw(st.sampled_from(_R13_UNITS))
    kind = draw(st.sampled_from(["same", "other", "other", "none"]))
    unit = {"same": gold_unit, "other": other, "none": ""}[kind]
    word, _, power = unit.partition("^")
    if kind == "none":
        after = ""
    else:
        form = draw(st.sampled_from(["\\text{{ {w}}}", "\\,\\mathrm{{{w}}}", " {w}", "~\\text{{{w}}}"]))
        after = form.format(w=word) + (f"^{power}" if power else "")
    text = draw(st.sampled_from(["So we get $\\boxed{{{g}}}{a}$.", "The answer is $\\boxed{{{g}}}${a}.", "$\\boxed{{{g}}}{a}$"]))
    gw, _, gp = gold_unit.partition("^")
    gold = f"{g} \\text{{ {gw}}}" + (f"^{gp}" if gp else "")
    return Case(text.format(g=g, a=after), gold, "not_paid" if kind == "other" else "paid", ("r13_unit_after_box", kind))


@st.composite
def r13_label_paragraph_before(draw: st.DrawFn, verifier: str) -> Case:
    """A labelled value that ends the paragraph before a bare final answer (``Final result:
    13\\n\\n\\boxed{20}``, ``Endergebnis: 83.``, ``| Answer | 6 |``, ``1. Ans: 6``, a JSON answer
    in a code fence) is a second answer when it differs: never paid; the same value is paid."""
    g = draw(st.integers(1, 5000))
    same = draw(st.booleans())
    v = g if same else g + draw(st.integers(1, 50))
    label = draw(st.sampled_from(["Final result: {v}", "Endergebnis: {v}.", "Conclusion: {v}", "Ans: {v}", "Final: {v}",
                                  "| Answer | {v} |", "1. Answer: {v}", "Final answer \u2192 {v}", "Answer \u2014 {v}",
                                  "R\u00e9sultat final : {v}.", '```json\n{{"answer": {v}}}\n```',
                                  "| **Final Answer** | **{v}** |", "```\nanswer = {v}\n```", "<answer>\n{v}\n</answer>",
                                  "1. Answer: {v}\n## Final Answer", '```json\n{{"answer": {v}}}\n```\n**Final Answer**']))
    final = draw(st.sampled_from(["$\\boxed{{{g}}}$", "The answer is {g}.", "#### {g}"]))
    text = label.format(v=v) + "\n\n" + final.format(g=g)
    return Case(text, str(g), "paid" if same else "not_paid", ("r13_label_paragraph_before", str(same), verifier))



@st.composite
def r13_digits_restated(draw: st.DrawFn, verifier: str) -> Case:
    """``The answer is six (6).``: an amount in words restated in digits is paid when both are
    the gold; words and digits that differ (``six (7)``), or a gold that is neither, never."""
    from verifiers.number_words import number_words

    n = draw(st.integers(0, 10**5))
    digits = n if draw(st.booleans()) else n + draw(st.integers(1, 9))
    form = draw(st.sampled_from(["#### {}", "The answer is {}.", "<answer>{}</answer>"]))
    words = draw(st.sampled_from([number_words(n), number_words(n).capitalize()]))
    gold = str(draw(st.sampled_from([n, digits])))
    paid = digits == n
    return Case(form.format(f"{words} ({digits})"), gold, "paid" if paid else "not_paid",
                ("r13_digits_restated", str(paid), verifier))



@st.composite
def r13_json_flag(draw: st.DrawFn, verifier: str) -> Case:
    """A JSON answer with a member the reader cannot vouch for (a flag: ``"correct": false``,
    ``"approximate": true``; words: ``"status": "wrong"``) or a working member that denies the
    answer's own value (``"it is not G"``, ``"不是G"``, ``"не G"``): never paid. Known members
    (confidence, the question, working that computes G) are paid."""
    g = draw(st.integers(2, 5000))
    kind = draw(st.sampled_from(["flag", "words", "denial", "known", "known"]))
    if kind == "flag":
        member = draw(st.sampled_from(['"correct": false', '"approximate": true', '"is_lower_bound": true', '"retracted": true',
                                       '"rounded": true', '"verified": null']))
    elif kind == "words":
        member = draw(st.sampled_from(['"status": "wrong"', '"verdict": "incorrect"', '"note2": "guess"']))
    elif kind == "denial":
        key = draw(st.sampled_from(["justification", "reasoning", "comment"]))
        note = draw(st.sampled_from(["it is not {g}", "\u4e0d\u662f{g}", "\u043d\u0435 {g}", "{g} is wrong", "not {g}"])).format(g=g)
        member = f'"{key}": "{note}"'
    else:
        member = draw(st.sampled_from(['"confidence": 0.8', '"question": "How many?"', f'"reasoning": "1 + {g - 1} = {g}"']))
    members = [f'"answer": {g}', member]
    if draw(st.booleans()):
        members.reverse()
    return Case("{" + ", ".join(members) + "}", str(g), "paid" if kind == "known" else "not_paid",
                ("r13_json_flag", kind, verifier))


@st.composite
def r13_unit_rate_after_box(draw: st.DrawFn) -> Case:
    """A rate or a power in the unit after a box (``\\boxed{907} kg/s``, ``\\boxed{12} km per
    hour``, ``\\boxed{660}\\,\\mathrm{cm}^{-1}``, ``\\boxed{12} m/s^2``) is part of the unit: a gold in
    its base unit alone (``907 kg``) is another quantity, never paid."""
    g = draw(st.integers(1, 5000))
    base, after = draw(st.sampled_from([("kg", " kg/s"), ("km", " km per hour"), ("cm", "\\,\\mathrm{cm}^{-1}"), ("m", " m/s^2"),
                                        ("kg", " kg/m^3"), ("s", " s^{-1}"), ("m", " meters per second")]))
    text = draw(st.sampled_from(["$\\boxed{{{g}}}${a}", "So it is \\boxed{{{g}}}{a}.", "\\boxed{{{g}}}{a}"]))
    return Case(text.format(g=g, a=after), f"{g} \\text{{ {base}}}", "not_paid", ("r13_unit_rate_after_box", base))


@st.composite
def r13_scale_abbreviation(draw: st.DrawFn, verifier: str) -> Case:
    """A scale word's abbreviation after the amount (``#### 6650 tys.``, ``\\boxed{834}\\text{
    thous.}``, ``The answer is 3 mln``) multiplies it: never paid for the bare amount."""
    g = draw(st.integers(1, 9999))
    abbr = draw(st.sampled_from(["tys.", "thous.", "tis.", "Tsd.", "mln", "mld", "mrd"]))
    form = draw(st.sampled_from(["#### {g} {a}", "The answer is {g} {a}", "$\\boxed{{{g}}}$\\text{{ {a}}}"]))
    if verifier == "gsm8k" and form.startswith("$"):
        form = "#### {g} {a}"
    return Case(form.format(g=g, a=abbr), str(g), "not_paid", ("r13_scale_abbreviation", abbr, verifier))


@st.composite
def r13_table_or_choice_before(draw: st.DrawFn, verifier: str) -> Case:
    """A table whose header row holds a labelled value (``| Total | 931 |`` over its rule) or a
    labelled choice letter (``Final result: C``) ending the paragraph before a bare final answer
    is a second answer when it differs: never paid; the same value is paid."""
    same = draw(st.booleans())
    if draw(st.booleans()):
        g = draw(st.integers(1, 5000))
        v = g if same else g + draw(st.integers(1, 50))
        label = draw(st.sampled_from(["Total", "**Answer**", "\u7b54\u6848", "\u041e\u0442\u0432\u0435\u0442", "Result"]))
        before = f"| {label} | {v} |\n|---|---|"
        gold = str(g)
    else:
        gold = draw(st.sampled_from("ABCDE"))
        v = gold if same else draw(st.sampled_from([c for c in "ABCDE" if c != gold]))
        before = draw(st.sampled_from(["Final result: {v}", "Answer: ({v})", "Choice: **{v}**"])).format(v=v)
    final = draw(st.sampled_from(["$\\boxed{{{g}}}$", "The answer is {g}."])).format(g=gold)
    return Case(before + "\n\n" + final, gold, "paid" if same else "not_paid", ("r13_table_or_choice_before", str(same), verifier))



@st.composite
def r13_countdown_label_before(draw: st.DrawFn) -> Case:
    """Countdown: a labelled line ending the paragraph before the answer names the goal or the
    numbers (``Target: 16``, ``Result: 16``), no answer: a right expression is paid; a labelled
    expression there that differs (``Answer: 9+7``) is a second answer, never paid."""
    a, b = draw(st.integers(2, 50)), draw(st.integers(2, 50))
    c, d = draw(st.integers(2, 50)), draw(st.integers(2, 50))
    target = a + b
    other = draw(st.booleans())
    label = f"Answer: {c}+{d}" if other and c + d != target else draw(st.sampled_from(["Target: {t}", "Result: {t}", "Goal: {t}"])).format(t=target)
    paid = not label.startswith("Answer")
    return Case(f"{label}\n\n<answer>{a}+{b}</answer>", str(target), "paid" if paid else "not_paid",
                ("r13_countdown_label_before", str(paid)), numbers=(a, b, c, d))



@st.composite
def r13_sign_or_noun_after_box(draw: st.DrawFn) -> Case:
    """After a box, a percent or degree sign, ``per cent``, ``×`` or ``bps``, an acceleration for
    a speed (``m per second squared``, ``km/h/h``), or a count noun for a physical unit (and a
    unit for a gold's count noun) is another quantity than a gold that names its unit: never
    paid. The gold's own unit, a count noun for the gold's count noun, or nothing: paid."""
    g = draw(st.integers(1, 5000))
    gold_unit, after, paid = draw(st.sampled_from([
        ("m", "\\%", False), ("km/h", " per cent", False), ("\\$", " \u00d7", False), ("kg", "^\\circ", False),
        ("km/h", " bps", False), ("m/s", " m per second squared", False), ("km/h", " km/h/h", False),
        ("cm", " marbles", False), ("marbles", " km", False), ("marbles", " marbles", True), ("cm", "", True),
        ("km/h", " km/h", True), ("\\%", "\\%", True)]))
    gold = f"\\${g}" if gold_unit == "\\$" else f"{g}\\%" if gold_unit == "\\%" else f"{g} {gold_unit}"
    text = draw(st.sampled_from(["So the result is $\\boxed{{{g}}}${a}.", "Total: \\boxed{{{g}}}{a}", "$$\\boxed{{{g}}}$${a}"]))
    return Case(text.format(g=g, a=after), gold, "paid" if paid else "not_paid", ("r13_sign_or_noun_after_box", gold_unit, after))


@st.composite
def r13_word_label_before(draw: st.DrawFn, verifier: str) -> Case:
    """A labelled value in words, a CJK or Roman numeral, a fraction, ``x = N`` or ``option B``
    ending the paragraph before a bare final answer is a second answer when it differs: never
    paid; the same value is paid."""
    g = draw(st.integers(2, 12))
    same = draw(st.booleans())
    v = g if same else g + draw(st.integers(1, 6))
    from verifiers.number_words import number_words

    cjk = "\u3007\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341"
    roman = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII"]
    spelled = draw(st.sampled_from([number_words(v), roman[v], f"x = {v}", f"\\frac{{{2 * v}}}{{2}}"]
                                   + ([cjk[v]] if v <= 10 else [])))
    label = draw(st.sampled_from(["Final result: {s}", "Total: {s}", "| Total | {s} |", "Result: {s}"])).format(s=spelled)
    final = draw(st.sampled_from(["$\\boxed{{{g}}}$", "The answer is {g}."])).format(g=g)
    return Case(label + "\n\n" + final, str(g), "paid" if same else "not_paid", ("r13_word_label_before", str(same), verifier))


@st.composite
def r13_json_note(draw: st.DrawFn, verifier: str) -> Case:
    """A short JSON note that qualifies the answer (``"comment": "probably"``, ``"certainty":
    "guess"``, ``"note": "random guess"``) is never paid; a note that does not (``"comment":
    "exact"``, ``"certainty": "high"``) is paid."""
    g = draw(st.integers(2, 5000))
    hedge = draw(st.booleans())
    key = draw(st.sampled_from(["comment", "note", "certainty", "notes"]))
    word = draw(st.sampled_from(["probably", "random guess", "guess", "maybe", "not sure", "approximately"])) if hedge else \
        draw(st.sampled_from(["exact", "high", "computed step by step", "checked"]))
    return Case(f'{{"answer": {g}, "{key}": "{word}"}}', str(g), "not_paid" if hedge else "paid", ("r13_json_note", str(hedge), verifier))


R13_PROPERTIES: list[Property] = [
    Property("r13_math_json_side_member", "math", r13_json_side_member("math"), 150),
    Property("r13_gsm8k_json_side_member", "gsm8k", r13_json_side_member("gsm8k"), 100),
    Property("r13_math_json_exponent", "math", r13_json_exponent("math"), 100),
    Property("r13_gsm8k_json_exponent", "gsm8k", r13_json_exponent("gsm8k"), 100),
    Property("r13_math_unit_after_box", "math", r13_unit_after_box(), 150),
    Property("r13_math_label_paragraph_before", "math", r13_label_paragraph_before("math"), 150),
    Property("r13_gsm8k_label_paragraph_before", "gsm8k", r13_label_paragraph_before("gsm8k"), 100),
    Property("r13_math_digits_restated", "math", r13_digits_restated("math"), 100),
    Property("r13_gsm8k_digits_restated", "gsm8k", r13_digits_restated("gsm8k"), 100),
    Property("r13_math_json_flag", "math", r13_json_flag("math"), 150),
    Property("r13_gsm8k_json_flag", "gsm8k", r13_json_flag("gsm8k"), 100),
    Property("r13_math_unit_rate_after_box", "math", r13_unit_rate_after_box(), 100),
    Property("r13_math_scale_abbreviation", "math", r13_scale_abbreviation("math"), 100),
    Property("r13_gsm8k_scale_abbreviation", "gsm8k", r13_scale_abbreviation("gsm8k"), 100),
    Property("r13_math_table_or_choice_before", "math", r13_table_or_choice_before("math"), 150),
    Property("r13_countdown_label_before", "countdown", r13_countdown_label_before(), 100),
    Property("r13_math_sign_or_noun_after_box", "math", r13_sign_or_noun_after_box(), 150),
    Property("r13_math_word_label_before", "math", r13_word_label_before("math"), 150),
    Property("r13_gsm8k_word_label_before", "gsm8k", r13_word_label_before("gsm8k"), 100),
    Property("r13_math_json_note", "math", r13_json_note("math"), 100),
    Property("r13_gsm8k_json_note", "gsm8k", r13_json_note("gsm8k"), 100),
]
ALL_PROPERTIES += R13_PROPERTIES
