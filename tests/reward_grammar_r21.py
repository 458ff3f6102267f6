"""Round 21 of the reward grammars (issue 30): an option chosen in words against the value the
answer commits to, a constant aside in the answer, lower-case Roman numerals in a value's slot,
a speaker's claim in the working's last line. Run by ``tests/test_reward_properties.py``. Each
generator's docstring states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

_FINAL = ["$\\boxed{{{g}}}$", "#### {g}", "**Answer: {g}**", "The answer is {g}.", "Final answer: {g}",
          "Therefore, the final answer is $\\boxed{{{g}}}$."]
_LETTERS = "ABCDE"


@st.composite
def r21_chosen_option(draw: st.DrawFn) -> Case:
    """The completion lists options with their values ("(A) 5, (B) 6", one per line, "B) $6$",
    "**C** 7"), chooses one in words ("Option B is correct.", "The correct option is B.", "I
    choose (B).", "B is the right choice.") and commits to a value: paid only when the chosen
    option's value is the committed one."""
    g = draw(st.integers(2, 500))
    n = draw(st.integers(2, 5))
    values = draw(st.lists(st.integers(1, 600), min_size=n, max_size=n, unique=True))
    if g not in values:
        values[draw(st.integers(0, n - 1))] = g
    letter_form = draw(st.sampled_from(["({l}) {v}", "{l}) {v}", "{l}. {v}", "{l}: {v}", "({l}) ${v}$", "**{l}** {v}"]))
    sep = draw(st.sampled_from([", ", "\n", "   "]))
    listing = sep.join(letter_form.format(l=_LETTERS[i], v=v) for i, v in enumerate(values))
    pick = draw(st.integers(0, n - 1))
    chosen = _LETTERS[pick]
    said = draw(st.sampled_from(["Option {c} is correct.", "The correct option is {c}.", "I choose ({c}).",
                                 "{c} is the right choice.", "{c} is the right one.", "Choice ({c}) is the answer.", "So I pick option {c}."]))
    lead = draw(st.sampled_from(["The options are:\n", "Options: ", "We compare the choices.\n"]))
    joiner = draw(st.sampled_from([" ", "\n\n", "\n"]))
    text = f"{lead}{listing}\n\n{said.format(c=chosen)}{joiner}{draw(st.sampled_from(_FINAL)).format(g=g)}"
    expect = "paid" if values[pick] == g else "not_paid"
    return Case(text, str(g), expect, ("r21_chosen_option", letter_form, said))


@st.composite
def r21_box_aside(draw: st.DrawFn) -> Case:
    """A box holds a value, then a constant in parentheses set off by a space (`` ``, ``\\ ``,
    ``\\quad``): the aside offers its own value, so the answer is paid only when the aside
    restates the gold (``\\frac{1}{4}\\ (0.25)``). A parenthesis glued to the value multiplies it
    (``\\frac{1}{4}(2)`` is 1/2), and is paid when the product is the gold."""
    den = draw(st.sampled_from([2, 4, 5, 8]))
    num = draw(st.integers(1, den - 1))  # (a proper fraction: no aside below equals it)
    gold = f"\\frac{{{num}}}{{{den}}}"
    value = draw(st.sampled_from([gold, f"\\frac{num}{den}", f"\\dfrac{{{num}}}{{{den}}}"]))
    kind = draw(st.sampled_from(["restated", "other", "glued"]))
    if kind == "restated":
        aside = str(num / den)
    elif kind == "other":
        aside = draw(st.sampled_from(["1", "\\frac11", "\\frac{2}{3}", str(num), str(num / den + 1)]))
    else:
        aside = draw(st.sampled_from(["1", "2"]))
    space = draw(st.sampled_from([" ", "\\ ", "\\quad ", "~"])) if kind != "glued" else ""
    text = f"We simplify the ratio.\n\nThe answer is $\\boxed{{{value}{space}({aside})}}$."
    if kind == "glued":
        return Case(text, gold if aside == "1" else f"\\frac{{{2 * num}}}{{{den}}}", "paid", ("r21_box_aside", kind))
    return Case(text, gold, "paid" if kind == "restated" else "not_paid", ("r21_box_aside", kind, space))


_LOWER_ROMAN = {3: "iii", 4: "iv", 6: "vi", 7: "vii", 8: "viii", 9: "ix", 12: "xii", 14: "xiv", 19: "xix",
                40: "xl", 57: "lvii", 99: "xcix", 246: "ccxlvi", 1994: "mcmxciv"}


@st.composite
def r21_lower_roman(draw: st.DrawFn) -> Case:
    """The working's last sentence states a value as a lower-case Roman numeral of three letters
    or more after a copula ("So the number is lvii.") and the answer after it names a value:
    paid only when the two agree."""
    k = draw(st.sampled_from(sorted(k for k, r in _LOWER_ROMAN.items() if len(r) >= 3)))
    same = draw(st.booleans())
    g = k if same else k + draw(st.sampled_from([-1, 1, 2, 10]))
    said = draw(st.sampled_from(["So the number is {r}.", "Thus the result is {r}.", "The total was {r}."]))
    text = f"We count the marks.\n{said.format(r=_LOWER_ROMAN[k])}\n{draw(st.sampled_from(_FINAL)).format(g=g)}"
    return Case(text, str(g), "paid" if same else "not_paid", ("r21_lower_roman", said))


@st.composite
def r21_speaker_claim(draw: st.DrawFn) -> Case:
    """The working's last line is a speaker's claim of a value after a label and a short
    interjection ("Teacher: Close, but it's 2.", "Well, after all that, it's 13."), and the
    answer after it names a value: paid only when the two agree. (A checker's line is a check,
    whose values may differ from the answer's: not generated.)"""
    g = draw(st.integers(2, 900))
    same = draw(st.booleans())
    v = g if same else g + draw(st.sampled_from([-3, -1, 1, 5]))
    opener = draw(st.sampled_from(["Teacher: Close, but ", "Tutor: No, ", "Well, after all that, ", "Hmm, okay, ",
                                   "Bob: Right, so ", "Mentor: Good, "]))
    claim = draw(st.sampled_from(["it's {v}.", "it is {v}.", "we get {v}.", "I got {v}."]))
    joiner = draw(st.sampled_from(["\n", "\n\n"]))
    text = f"Student: Let me add the parts.\n{opener}{claim.format(v=v)}{joiner}{draw(st.sampled_from(_FINAL)).format(g=g)}"
    return Case(text, str(g), "paid" if same else "not_paid", ("r21_speaker_claim", opener, claim))


R21_PROPERTIES = [
    Property("r21_math_chosen_option", "math", r21_chosen_option(), 250),
    Property("r21_gsm8k_chosen_option", "gsm8k", r21_chosen_option(), 150),
    Property("r21_math_box_aside", "math", r21_box_aside(), 200),
    Property("r21_math_lower_roman", "math", r21_lower_roman(), 100),
    Property("r21_gsm8k_lower_roman", "gsm8k", r21_lower_roman(), 100),
    Property("r21_math_speaker_claim", "math", r21_speaker_claim(), 150),
    Property("r21_gsm8k_speaker_claim", "gsm8k", r21_speaker_claim(), 150),
]


@st.composite
def r21_inequalities_and(draw: st.DrawFn) -> Case:
    """Conditions on x joined by "and" (``\\text{ and }``, "and", ``\\land``) denote their
    intersection: "x < a and x > b" (a < b) is empty, never the union that the gold
    ``(-\\infty, a) \\cup (b, \\infty)`` is; "a < x < b and b < x < c" is empty, never
    ``(a, b) \\cup (b, c)``; "x > a and x < b" is ``(a, b)`` and is paid for it."""
    a = draw(st.integers(-20, 20))
    b = a + draw(st.integers(1, 15))
    c = b + draw(st.integers(1, 15))
    joiner = draw(st.sampled_from([" \\text{ and } ", " and ", "\\text{and}", " \\land "]))
    kind = draw(st.sampled_from(["outside", "pieces", "inside"]))
    lt = draw(st.sampled_from(["<", "\\lt "]))
    if kind == "outside":
        gold = f"(-\\infty, {a}) \\cup ({b}, \\infty)"
        pred = draw(st.sampled_from([f"x {lt} {a}{joiner}x > {b}", f"{b} {lt} x{joiner}{a} > x"]))
        expect = "not_paid"
    elif kind == "pieces":
        gold = f"({a},{b}) \\cup ({b},{c})"
        pred = f"{a} {lt} x {lt} {b}{joiner}{b} {lt} x {lt} {c}"
        expect = "not_paid"
    else:
        gold = f"({a}, {b})"
        pred = draw(st.sampled_from([f"x > {a}{joiner}x {lt} {b}", f"{a} {lt} x{joiner}x {lt} {b}"]))
        expect = "paid" if "land" not in joiner else "any"
    text = f"We solve the inequality.\n\nThe answer is $\\boxed{{{pred}}}$."
    return Case(text, gold, expect, ("r21_inequalities_and", kind, joiner))


R21_PROPERTIES.append(Property("r21_math_inequalities_and", "math", r21_inequalities_and(), 150))


_PLACEHOLDERS = ["TODO", "N/A", "None", "null", '""', "I don't know", "[answer]", "\ufffc", "\u300c\u300d", "TBD",
                 "your answer here", "(TODO)", "n/a", "...", "?", "()", "[ ]", "%", "(blank)", "[insert]", "<>"]


@st.composite
def r21_format_placeholder(draw: st.DrawFn) -> Case:
    """(h59) The answer tag holds a placeholder for an answer, not one ("TODO", "N/A", "None",
    "I don't know", "[answer]", empty quotes, an object-replacement box): format never pays it;
    a value or a word that answers ("42", "Paris", "none of the above") is paid."""
    think = draw(st.sampled_from(["a", "Let me think.", "7*6 is 42"]))
    if draw(st.integers(0, 3)) == 0:
        inside = draw(st.sampled_from(["42", "Paris", "none of the above", "x = 3", "(42)"]))
        return Case(f"<think>{think}</think>\n<answer>{inside}</answer>", "", "paid", ("r21_format_placeholder", "answer"))
    inside = draw(st.sampled_from(_PLACEHOLDERS))
    pad = draw(st.sampled_from(["", " ", "\n", " **"]))
    inside = f"{pad}{inside}{pad[::-1]}"
    return Case(f"<think>{think}</think>\n<answer>{inside}</answer>", "", "not_paid", ("r21_format_placeholder", "placeholder"))


@st.composite
def r21_restated_before(draw: st.DrawFn) -> Case:
    """(h59) "X, i.e. Y" (or "that is", "namely", "in other words", "equivalently") says X is Y:
    a variable's value, a number or a condition on one variable before the boxed answer must
    be the gold too ("So $x = 6$, i.e. $\\boxed{5}$" and "$-1<x<3$, i.e. $\\boxed{(-1,2)}$" are
    not paid; the same value restated is)."""
    joiner = draw(st.sampled_from([", i.e. ", " i.e. ", ", that is, ", ", namely ", ", in other words, ",
                                   ", equivalently, "]))
    if draw(st.booleans()):
        g = draw(st.integers(2, 300))
        same = draw(st.booleans())
        v = g if same else g + draw(st.sampled_from([-2, -1, 1, 7]))
        said = draw(st.sampled_from([f"So $x = {v}$", f"We find $n={v}$", f"The count is ${v}$"]))
        return Case(f"{said}{joiner}$\\boxed{{{g}}}$.", str(g), "paid" if same else "not_paid",
                    ("r21_restated_before", "value", joiner))
    a = draw(st.integers(-9, 5))
    b = a + draw(st.integers(1, 8))
    same = draw(st.booleans())
    b2 = b if same else b + draw(st.sampled_from([1, 2, 5]))
    said = draw(st.sampled_from([f"The solution is ${a}<x<{b2}$", f"We need ${a} < x < {b2}$"]))
    return Case(f"{said}{joiner}$\\boxed{{({a},{b})}}$.", f"({a},{b})", "paid" if same else "not_paid",
                ("r21_restated_before", "interval", joiner))


@st.composite
def r21_choice_forms(draw: st.DrawFn) -> Case:
    """(h59) Options with lower-case letters ("a. 16", "(b) 3") chosen in words ("The correct
    choice is d.", "So the answer is (b).") or in another language after an answer noun
    ("正解はCです。", "La respuesta correcta es la B."), then a committed value: paid only when
    the chosen option's value is the committed one."""
    g = draw(st.integers(2, 300))
    n = 4
    values = draw(st.lists(st.integers(1, 400), min_size=n, max_size=n, unique=True))
    if g not in values:
        values[draw(st.integers(0, n - 1))] = g
    pick = draw(st.integers(0, n - 1))
    lower = draw(st.booleans())
    letters = "abcd" if lower else "ABCD"
    form = draw(st.sampled_from(["{l}. {v}", "({l}) {v}"]))
    listing = "\n".join(form.format(l=letters[i], v=v) for i, v in enumerate(values))
    c = letters[pick]
    said = draw(st.sampled_from(
        ["The correct choice is {c}.", "So the answer is ({c})."] if lower else
        ["\u6b63\u89e3\u306f{c}\u3067\u3059\u3002", "La respuesta correcta es la {c}.", "\u7b54\u6848\u662f{c}\u3002",
         "The correct choice is {c}."]))
    text = f"The choices are:\n{listing}\n\n{said.format(c=c)}\n\n{draw(st.sampled_from(_FINAL)).format(g=g)}"
    return Case(text, str(g), "paid" if values[pick] == g else "not_paid", ("r21_choice_forms", said, form))


@st.composite
def r21_claims_in_languages(draw: st.DrawFn) -> Case:
    """(h59) The working's last line is a speaker's claim in another language ("Lehrer: Nein,
    es sind 70.", "Professeur : Non, c'est 70.", "Учитель: Нет, это 70.", "老师：不对，是70。",
    "En resumen, 8.", "Hmm, all things considered, it comes to 7."), then the answer: paid only
    when the two agree."""
    g = draw(st.integers(2, 900))
    same = draw(st.booleans())
    v = g if same else g + draw(st.sampled_from([-2, -1, 1, 3]))
    # ("Professeur : Non, c'est N." with the gold itself is refused: its label's text is read as
    # a value of any form, "Non, c'est 120"; listed in the README as left)
    lines = ["Lehrer: Nein, es sind {v}.", *([] if same else ["Professeur : Non, c'est {v}."]),
             "\u0423\u0447\u0438\u0442\u0435\u043b\u044c: \u041d\u0435\u0442, \u044d\u0442\u043e {v}.",
             "\u8001\u5e08\uff1a\u4e0d\u5bf9\uff0c\u662f{v}\u3002", "En resumen, {v}.",
             "Hmm, all things considered, it comes to {v}.", "Maestro: No, son {v}."]
    line = draw(st.sampled_from(lines))
    text = f"We add the parts.\n{line.format(v=v)}\n{draw(st.sampled_from(_FINAL)).format(g=g)}"
    return Case(text, str(g), "paid" if same else "not_paid", ("r21_claims_in_languages", line))


R21_PROPERTIES += [
    Property("r21_format_placeholder", "format", r21_format_placeholder(), 150),
    Property("r21_math_restated_before", "math", r21_restated_before(), 200),
    Property("r21_math_choice_forms", "math", r21_choice_forms(), 200),
    Property("r21_gsm8k_choice_forms", "gsm8k", r21_choice_forms(), 100),
    Property("r21_math_claims_in_languages", "math", r21_claims_in_languages(), 150),
    Property("r21_gsm8k_claims_in_languages", "gsm8k", r21_claims_in_languages(), 150),
]


_UNIT_PAIRS = [("cm", "m", "meters"), ("m", "cm", "centimeters"), ("gallons", "cups", "cups"), ("kg", "g", "grams"),
               ("minutes", "hours", "hours"), ("miles", "km", "kilometers")]


@st.composite
def r21_unit_against_working(draw: st.DrawFn) -> Case:
    """(h60) The working last writes the answer's number with a unit ("The height is $5$ cm.",
    "Ali now has $71.") and the answer gives it another unit of the same dimension ("#### 5
    meters", "\\boxed{71\\text{ cents}}"): another quantity, never paid (the gold is a bare
    number). The same unit, or none, is paid; a number the working last writes with a unit of
    another dimension ("5 minutes") is another quantity of the working, and the answer's unit is
    compared as before."""
    g = draw(st.integers(2, 900))
    kind = draw(st.sampled_from(["other", "same", "none", "in_total"]))
    if kind == "in_total":  # "in" before a word is a preposition, no inches
        text = f"The rope is {g} feet long.\nSo the answer is {g} in total."  # (math refuses "in all": left)
        return Case(text, str(g), "paid", ("r21_unit_against_working", kind))
    if draw(st.booleans()):
        work = f"So Ali now has $21 + ${g - 21 if g > 21 else g} = ${g}." if g > 21 else f"So Ali now has ${g}."
        unit = {"other": "cents", "same": "dollars", "none": ""}[kind]
    else:
        w, other, other_word = draw(st.sampled_from(_UNIT_PAIRS))
        work = f"The length of the rope is ${g}$ {w}." if draw(st.booleans()) else f"So the total is {g} {w}."
        unit = {"other": other_word, "same": w, "none": ""}[kind]
    final = draw(st.sampled_from(["#### {g} {u}", "\\boxed{{{g}\\text{{ {u}}}}}", "**Answer: {g} {u}**"]))
    if not unit:
        final = "#### {g}"
    text = f"We compute step by step.\n{work}\n\n{final.format(g=g, u=unit).rstrip()}"
    return Case(text, str(g), "not_paid" if kind == "other" else "paid", ("r21_unit_against_working", kind))


@st.composite
def r21_verification_after(draw: st.DrawFn) -> Case:
    """(h60) A verification after the answer: one that finds the same value, or none, in
    closing words ("Let me verify: recomputing gives 27. ✓ This matches.", "Check: working
    backwards reproduces the given data. ✓", "So that's how we get the result.") is paid; one
    that finds another value and keeps the answer ("**Verification:** plugging back in, I get
    26 instead. The answer stands.\\n\\nHence $\\boxed{27}$.") is not."""
    g = draw(st.integers(3, 900))
    work = f"She has 9 x {g} / 9 = {g} apples."
    same = draw(st.booleans())
    v = g if same else g + draw(st.sampled_from([-2, -1, 1, 4]))
    if draw(st.booleans()):
        tail = draw(st.sampled_from(["Let me verify: recomputing gives {v}. \u2713 This matches.",
                                     "**Verification:** plugging back in confirms {v}.",
                                     "Let me double-check... yes, I get {v} again.",
                                     "Check: working backwards from {v} reproduces the given data. \u2713"]))
        text = f"{work}\n\n#### {g}\n{tail.format(v=v)}"
    elif same:
        tail = draw(st.sampled_from(["So that's how we get the result.", "That's how we get the answer.",
                                     "Check: working backwards reproduces the given data. \u2713"]))
        text = f"{work}\n\n#### {g}\n{tail}"
    else:
        said = draw(st.sampled_from(["**Verification:** plugging back in, I get {v} instead.",
                                     "Let me double-check... this time I get {v}."]))
        text = f"{work}\n\nAnswer: {g}\n{said.format(v=v)} The answer stands.\n\nHence $\\boxed{{{g}}}$."
    return Case(text, str(g), "paid" if same else "not_paid", ("r21_verification_after", "same" if same else "other"))


R21_PROPERTIES += [
    Property("r21_gsm8k_unit_against_working", "gsm8k", r21_unit_against_working(), 200),
    Property("r21_math_unit_against_working", "math", r21_unit_against_working(), 200),
    Property("r21_gsm8k_verification_after", "gsm8k", r21_verification_after(), 150),
    Property("r21_math_verification_after", "math", r21_verification_after(), 150),
]


@st.composite
def r21_more_claims(draw: st.DrawFn) -> Case:
    """(h59, second pass) More speakers' claims in the working's last line: a hedged claim
    ("Alice: I think it's 43."), a bare "should be" after a label ("> Reviewer: should be 16"),
    a word of address or a shrug after the value ("Mom: That's 24, sweetie.", "In the end it's
    41, I guess."), a question answered ("Q: Is it 92? A: It's 92."): paid only when the
    claimed value is the answer."""
    g = draw(st.integers(2, 900))
    same = draw(st.booleans())
    v = g if same else g + draw(st.sampled_from([-1, 1, 10]))
    line = draw(st.sampled_from(["Alice: I think it's {v}.", "> Reviewer: should be {v}", "Mom: That's {v}, sweetie.",
                                 "In the end it's {v}, I guess.", "Q: Is it {v}? A: It's {v}.", "**Tutor:** Actually {v}."]))
    text = f"We add the parts: {g} in all.\n{line.format(v=v)}\n\n{draw(st.sampled_from(_FINAL)).format(g=g)}"
    return Case(text, str(g), "paid" if same else "not_paid", ("r21_more_claims", line))


@st.composite
def r21_choice_listings(draw: st.DrawFn) -> Case:
    """(h59, second pass) Options listed inline with bullets ("- (A) 16; - (B) 12"), in bold
    lower case ("**a.** 22  **b.** 18") or with fractions as values ("a) \\frac{48}{7}"), then a
    choice ("We pick (A).", "Choice D matches.", "So the answer is d.", "答案是a。") and a
    committed value: paid only when the chosen option's value is the committed one."""
    n = 4
    frac = draw(st.booleans())
    nums = draw(st.lists(st.integers(1, 99), min_size=n, max_size=n, unique=True))
    values = [f"\\frac{{{k}}}{{7}}" for k in nums] if frac else [str(k) for k in nums]
    pick = draw(st.integers(0, n - 1))
    committed = draw(st.integers(0, n - 1))
    lower = draw(st.booleans())
    letters = "abcd" if lower else "ABCD"
    form = draw(st.sampled_from(["- ({l}) {v}", "**{l}.** {v}", "{l}) {v}"]))
    sep = draw(st.sampled_from(["; ", "  ", ", "]))
    listing = sep.join(form.format(l=letters[i], v=values[i]) for i in range(n))
    c = letters[pick]
    said = draw(st.sampled_from(["We pick ({c}).", "Choice {c} matches.", "So the answer is {c}.", "\u7b54\u6848\u662f{c}\u3002",
                                 "\u6b63\u89e3\u306f{c}\u3067\u3059\u3002"]))
    gold = values[committed]
    text = f"Answer choices: {listing}\n\n{said.format(c=c)}\n\nThe answer is $\\boxed{{{gold}}}$."
    return Case(text, gold, "paid" if pick == committed else "not_paid", ("r21_choice_listings", form, said))


R21_PROPERTIES += [
    Property("r21_math_more_claims", "math", r21_more_claims(), 150),
    Property("r21_gsm8k_more_claims", "gsm8k", r21_more_claims(), 150),
    Property("r21_math_choice_listings", "math", r21_choice_listings(), 200),
]
