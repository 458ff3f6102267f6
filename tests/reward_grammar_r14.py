"""Round 14 of the reward grammars (issue 30: the blind h43 set): generators of completions
with what a sound reward must do with each, run by ``tests/test_reward_properties.py``.

Each generator draws from a grammar (a form x a label x a position x a language ...), labels
the case by construction, and says in its docstring the invariant it tests.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st
from reward_grammar import Case, Property

_LABELS = ["Final result", "Result", "Conclusion", "So the result", "### Final result", "**Final result:**",
           "Kết quả", "Итог", "Результат", "النتيجة", "परिणाम", "結果", "Endergebnis", "Resultado"]
_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def _other_form(draw: st.DrawFn, g: int) -> tuple[str, Fraction]:
    """A value written in a form the plain readers do not take, and its value."""
    p, q = draw(st.integers(2, 99)), draw(st.integers(2, 9))
    a, k = draw(st.integers(2, 12)), draw(st.integers(2, 4))
    forms = [
        (f"{p}/{q}", Fraction(p, q)), (f"{p} / {q}", Fraction(p, q)), (f"-{p}/{q}", Fraction(-p, q)),
        (f"({p}/{q})", Fraction(p, q)), (f"${p}/{q}$", Fraction(p, q)), (f"`{p}/{q}`", Fraction(p, q)),
        (f"{p}\u00f7{q}", Fraction(p, q)), (f"{p}\u2044{q}", Fraction(p, q)), ("\u00bd", Fraction(1, 2)),
        (f"{a}\u00bd", Fraction(2 * a + 1, 2)), (f"{a} 1/2", Fraction(2 * a + 1, 2)), (f"{a}e1", Fraction(10 * a)),
        (f"{a}^{k}", Fraction(a**k)), (f"{a}**{k}", Fraction(a**k)),
        (f"{_WORDS[a - 2]} and a half", Fraction(2 * a + 1, 2)), (f"{_WORDS[a - 2]} point five", Fraction(2 * a + 1, 2)),
        (f"{_WORDS[a - 2]} halves", Fraction(a, 2)),
    ]
    return draw(st.sampled_from(forms))


@st.composite
def r14_label_any_form(draw: st.DrawFn, verifier: str) -> Case:
    """A labelled value of any form (a fraction, a vulgar fraction, ``7.5e1``, a power, ``six
    and a half``) ending the paragraph before the final answer, or on the line right before
    it, is a second answer: never paid when its value differs from the gold. Written as plain
    arithmetic that equals the gold (``Result: 40/2`` then ``#### 20``) it is the same answer:
    paid."""
    g = draw(st.integers(2, 300))
    same = draw(st.booleans())
    if same:
        k = draw(st.integers(2, 5))
        text, value = draw(st.sampled_from([(f"{g * k}/{k}", Fraction(g)), (f"{g * k} / {k}", Fraction(g))]))
    else:
        text, value = _other_form(draw, g)
        if value == g:
            text, value = f"{g + 1}/2", Fraction(g + 1, 2)
    label = draw(st.sampled_from(_LABELS))
    sep = " " if label.endswith(":**") else draw(st.sampled_from([": ", "\uff1a"]))
    gap = draw(st.sampled_from(["\n\n", "\n", "\n\n---\n\n"]))
    final = draw(st.sampled_from(["The answer is $\\boxed{{{g}}}$.", "\\boxed{{{g}}}", "#### {g}",
                                  "Therefore, the final answer is {g}."] if verifier == "gsm8k" else
                                 ["The answer is $\\boxed{{{g}}}$.", "\\boxed{{{g}}}", "So we get \\({g}\\)."])).format(g=g)
    lead = draw(st.sampled_from(["", "We add the parts step by step.\n\n"]))
    return Case(f"{lead}{label}{sep}{text}{gap}{final}", str(g), "paid" if same else "not_paid",
                ("r14_label_any_form", str(same), verifier))


@st.composite
def r14_sign_against_gold(draw: st.DrawFn) -> Case:
    """A gold in percent or degrees takes that sign after the box and no other unit
    (``\\boxed{23} bps``, ``per mille``, ``cm^2`` are not ``23\\%``), and a sign is no count
    noun's unit (``\\boxed{54}°`` is not 54 marbles): never paid. The gold's own sign, in
    symbol or word, is paid."""
    g = draw(st.integers(1, 500))
    gold, after, paid = draw(st.sampled_from([
        ("{g}\\%", " bps", False), ("{g}\\%", " basis points", False), ("{g}\\%", " per mille", False),
        ("{g}\\%", "\u2030", False), ("{g}\\%", " cm^2", False), ("{g}^\\circ", " bps", False),
        ("{g}^\\circ", "\\%", False), ("{g} marbles", "\u00b0", False), ("{g} marbles", "^\\circ", False),
        ("{g}\\%", "\\%", True), ("{g}\\%", " percent", True), ("{g}^\\circ", "^\\circ", True),
        ("{g}^\\circ", " degrees", True), ("{g} degrees", "\u00b0", True), ("{g} percent", "\\%", True),
        ("{g} marbles", " marbles", True)]))
    text = draw(st.sampled_from(["So the total is \\boxed{{{g}}}{a}.", "\u7b54\u6848\u662f \\boxed{{{g}}}{a}\u3002",
                                 "\u041e\u0442\u0432\u0435\u0442: \\boxed{{{g}}}{a}."]))
    return Case(text.format(g=g, a=after), gold.format(g=g), "paid" if paid else "not_paid",
                ("r14_sign_against_gold", gold, after))


_BOUNDS_AFTER = ["hoogstens", "minstens", "mindestens", "wenigstens", "al menos", "por lo menos", "pelo menos",
                 "ao menos", "au moins", "au plus", "o menos", "o m\u00e1s", "ou mais", "of meer", "oder mehr",
                 "almeno", "environ", "ongeveer", "ungef\u00e4hr", "minst", "h\u00f6gst"]
_FALSITY_AFTER = ["(erroneous)", "(bogus)", ", in error", " \u2014 in error!", " (spurious)", "+"]


@st.composite
def r14_bound_or_falsity_after(draw: st.DrawFn, verifier: str) -> Case:
    """After the final value, a bound or estimate word of another European language
    (``\\boxed{400} hoogstens``, ``#### 58 pelo menos``, ``711 mindestens``), a judgement of
    falsity (``(erroneous)``, ``, in error``) or a plus that nothing follows (``#### 5+``, or
    more) says the value is not the answer: never paid. A count noun (``apples``) is paid."""
    g = draw(st.integers(2, 999))
    kind = draw(st.sampled_from(["bound", "falsity", "noun"]))
    after = {"bound": " " + draw(st.sampled_from(_BOUNDS_AFTER)), "falsity": draw(st.sampled_from(_FALSITY_AFTER)),
             "noun": " " + draw(st.sampled_from(["apples", "students", "marbles"]))}[kind]
    text = draw(st.sampled_from(["#### {g}{a}", "The answer is {g}{a}."] if verifier == "gsm8k" else
                                ["The answer is \\boxed{{{g}}}{a}.", "Final: \\boxed{{{g}}}{a}"]))
    if after == "+" and text.endswith("."):
        text = text[:-1]
    return Case(text.format(g=g, a=after), str(g), "paid" if kind == "noun" else "not_paid",
                ("r14_bound_or_falsity_after", kind, verifier))


@st.composite
def r14_json_members(draw: st.DrawFn, verifier: str) -> Case:
    """A JSON answer beside a value alone under a working key (``"solution": 88``), a note of
    a few words that is no closing remark (``"note": "\u2265"``, ``"in millions"``, ``"\u7ea6"``,
    ``"bogus"``) or a unit member that is no unit (``"unit": "~"``) is never paid. The same
    value under the working key, a note such as ``"verified"`` or ``"exact"`` and a real unit
    are paid."""
    g = draw(st.integers(2, 5000))
    kind = draw(st.sampled_from(["rival", "note", "unit", "same", "fine_note", "fine_unit"]))
    member = {
        "rival": f'"{draw(st.sampled_from(["solution", "working", "calculation"]))}": {g + draw(st.integers(1, 50))}',
        "note": '"{}": "{}"'.format(draw(st.sampled_from(["note", "comment", "notes"])), draw(st.sampled_from(
            [">=", "\u2265", "~", "\u00b1", "+", "in millions", "in thousands", "bogus", "mindestens", "\u7ea6",
             "\u5927\u7ea6", "khoảng", "retracted"]))),
        "unit": '"unit": "{}"'.format(draw(st.sampled_from(["~", "a guess", "\u2248"]))),
        "same": f'"solution": {g}',
        "fine_note": '"note": "{}"'.format(draw(st.sampled_from(["verified", "exact", "done", "checked"]))),
        "fine_unit": '"units": "{}"'.format(draw(st.sampled_from(["dollars", "apples", "students"]))),
    }[kind]
    members = [f'"answer": {g}', member]
    if draw(st.booleans()):
        members.reverse()
    return Case("{" + ", ".join(members) + "}", str(g), "paid" if kind in ("same", "fine_note", "fine_unit") else "not_paid",
                ("r14_json_members", kind, verifier))


@st.composite
def r14_counter_after_box(draw: st.DrawFn) -> Case:
    """A counter or unit of a script without Latin count nouns right after the value, with
    its copula (``441个``, ``259개입니다``, ``169円です``, ``5 человек``), dresses the value as
    ``12 apples`` does: paid for a bare gold. Followed by a bound or another value
    (``441个左右``, ``441个或442个``) it is never paid."""
    g = draw(st.integers(2, 999))
    counted = draw(st.booleans())
    lead, tail = draw(st.sampled_from([("\u7b54\u6848\u662f ", "\u4e2a\u3002"), ("\ub2f5\uc740 ", "\uac1c\uc785\ub2c8\ub2e4."),
                                       ("\u7b54\u3048\u306f ", "\u5186\u3067\u3059\u3002"),
                                       ("\u041e\u0442\u0432\u0435\u0442: ", " \u0447\u0435\u043b\u043e\u0432\u0435\u043a."),
                                       ("\u0909\u0924\u094d\u0924\u0930: ", " \u0930\u0941\u092a\u092f\u0947\u0964")]))
    if not counted:
        tail = draw(st.sampled_from(["\u4e2a\u5de6\u53f3\u3002", f"\u4e2a\u6216{g + 1}\u4e2a\u3002", "\u500d\u3002"]))
        lead = "\u7b54\u6848\u662f "
    return Case(f"{lead}\\boxed{{{g}}}{tail}", str(g), "paid" if counted else "not_paid", ("r14_counter_after_box", str(counted)))


@st.composite
def r14_gold_units(draw: st.DrawFn) -> Case:
    """A gold written with a unit's power or a count noun of an irregular plural (``5 cm^2``,
    ``432 people``, ``481 newtons``) is paid for the bare value or the same unit after the
    box; another unit or power is never paid."""
    g = draw(st.integers(2, 999))
    gold_unit, after, paid = draw(st.sampled_from([
        ("cm^2", "", True), ("cm^2", " cm^2", True), ("cm^2", "\\text{ cm}^2", True), ("cm^2", " cm^3", False),
        ("cm^2", " m^2", False), ("m^3", " m^3", True), ("m^3", " m^2", False), ("people", "", True),
        ("people", " people", True), ("children", " children", True), ("newtons", " newtons", True),
        ("newtons", " joules", False), ("m/s^2", " m/s^2", True), ("m/s^2", " m/s", False)]))
    return Case(f"The answer is $\\boxed{{{g}}}${after}.", f"{g} {gold_unit}", "paid" if paid else "not_paid",
                ("r14_gold_units", gold_unit, after))


@st.composite
def r14_format_hidden(draw: st.DrawFn) -> Case:
    """An answer tag that shows nothing (a blank to fill: ``\\underline{\\qquad}``,
    ``\\makebox[1cm]{}``, ``\\ensuremath{\\phantom{12}}``) or only struck-through text
    (``<del>12</del>``, ``~~12~~``), and content outside the tags that does not render
    (``<template>x</template>``, ``\\iffalse x \\fi``, ``<div hidden>x</div>``) are never paid;
    an answer with its value shown is."""
    kind = draw(st.sampled_from(["blank", "struck", "outside", "fine"]))
    body, outside = "12", ""
    if kind == "blank":
        body = draw(st.sampled_from(["\\underline{\\qquad}", "\\underline{\\hspace{2cm}}", "\\makebox[1cm]{}",
                                     "\\ensuremath{\\phantom{12}}", "\\mathord{}", "\\scriptstyle", "\\ensuremath{\\,}"]))
    elif kind == "struck":
        body = draw(st.sampled_from(["<del>12</del>", "<s>12</s>", "~~12~~", "<strike>12</strike>", "\\sout{12}",
                                     "<del><b>12</b></del>"]))
    elif kind == "outside":
        outside = draw(st.sampled_from(["<template>13</template>", "\\iffalse 13 \\fi", "<div hidden>13</div>",
                                        "<script>13</script>", "<noscript>13</noscript>", "\\phantom{13}",
                                        '<span style="display:none">13</span>']))
    else:
        body = draw(st.sampled_from(["12", "\\underline{12}", "<b>12</b>", "~~11~~ 12", "$\\frac{1}{2}$"]))
    where = draw(st.sampled_from(["before", "between", "after"]))
    think, answer = "<think>Compute the product.</think>", f"<answer>{body}</answer>"
    text = {"before": outside + think + answer, "between": think + outside + answer, "after": think + answer + outside}[where]
    return Case(text, "", "paid" if kind == "fine" else "not_paid", ("r14_format_hidden", kind))


R14_PROPERTIES: list[Property] = [
    Property("r14_math_label_any_form", "math", r14_label_any_form("math"), 200),
    Property("r14_gsm8k_label_any_form", "gsm8k", r14_label_any_form("gsm8k"), 150),
    Property("r14_math_sign_against_gold", "math", r14_sign_against_gold(), 150),
    Property("r14_math_bound_or_falsity_after", "math", r14_bound_or_falsity_after("math"), 150),
    Property("r14_gsm8k_bound_or_falsity_after", "gsm8k", r14_bound_or_falsity_after("gsm8k"), 150),
    Property("r14_math_json_members", "math", r14_json_members("math"), 150),
    Property("r14_gsm8k_json_members", "gsm8k", r14_json_members("gsm8k"), 100),
    Property("r14_math_counter_after_box", "math", r14_counter_after_box(), 100),
    Property("r14_math_gold_units", "math", r14_gold_units(), 100),
    Property("r14_format_hidden", "format", r14_format_hidden(), 150),
]
