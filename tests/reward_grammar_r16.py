"""Round 16 of the reward grammars (issue 30: the open items of round 15 and the blind h46 set
on its final tree), run by ``tests/test_reward_properties.py``. Each generator's docstring
states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

_COUNT_NOUNS = ["apples", "dollars", "eggs", "students", "cookies", "miles", "pages", "dollars in total",
                "apples altogether", "cups of flour"]


@st.composite
def r16_failure_after_count(draw: st.DrawFn) -> Case:
    """An uncommitted last number with its count noun, then a clause that rejects it
    (``So 9822 apples, which is too large.``, ``She pays 1000 dollars in total, which fails the
    budget.``), is never paid, for the math and the GSM8K reward alike; a clause that accepts it
    (``, which is within the budget``) or none is paid."""
    g = draw(st.integers(2, 99999))
    paid = draw(st.booleans())
    lead = draw(st.sampled_from(["So ", "She pays ", "In total, he has ", "That gives ", "Thus we get "]))
    noun = draw(st.sampled_from(_COUNT_NOUNS))
    tail = draw(st.sampled_from(["", ", which is within the budget", ", which matches the total", ", which is the total"]
                                if paid else
                                [", which is too large", ", which fails the budget", ", which is impossible",
                                 ", which we reject", ", which exceeds the limit", "; this is impossible",
                                 ", but this is too small", ", so it is ruled out", ", which contradicts the data",
                                 " \u2014 which is extraneous", ": that fails the check"]))
    return Case(f"{lead}{g} {noun}{tail}.", str(g), "paid" if paid else "not_paid", ("r16_failure_after_count", tail))


_SUBJECTS = ["Tom", "Maria", "She", "The store", "Jan"]
_NOUNS = ["apples", "marbles", "cookies", "dollars", "stickers", "miles"]
# How the working's last sentence states an amount {v} ({o}: an operand).
_CONCLUSIONS = [
    "So {s} has {o} - 2 = {v} {n} left.", "{s} ends up with {v} {n}, so", "Hence {s} collected {v} {n} in all.",
    "{s} has {v} {n} left.", "In total, {s} spends ${v}.", "Altogether, {s} has {o} + 3 = <<{o}+3={v}>>{v} {n}.",
    "\u6c64\u59c6\u8fd8\u5269{v}\u4e2a\u3002", "\u30c8\u30e0\u306f\u5408\u8a08{v}\u500b\u6301\u3063\u3066\u3044\u307e\u3059\u3002",
    "\u0423 \u0422\u043e\u043c\u0430 \u043e\u0441\u0442\u0430\u043b\u043e\u0441\u044c {v} \u044f\u0431\u043b\u043e\u043a\u0430.",
    "\ud1b0\uc740 {v}\uac1c\uac00 \ub0a8\uc558\uc2b5\ub2c8\ub2e4.",
    # (h47: in math, and sentences of other languages that end with the amount)
    "Therefore, the total number of {n} is ${v}$.", "So {s} has ${v}$ {n} left.",
    "\u3088\u3063\u3066\u3001\u6b8b\u308a\u306e\u308a\u3093\u3054\u306f ${v}$ \u500b\u3067\u3059\u3002",
    "\u56e0\u6b64\uff0c\u82f9\u679c\u7684\u603b\u6570\u662f {v}\u3002",
    "\u0421\u043b\u0435\u0434\u043e\u0432\u0430\u0442\u0435\u043b\u044c\u043d\u043e, \u043e\u0431\u0449\u0435\u0435 "
    "\u0447\u0438\u0441\u043b\u043e \u044f\u0431\u043b\u043e\u043a \u0440\u0430\u0432\u043d\u043e {v}.",
    "V\u1eady t\u1ed5ng s\u1ed1 t\u00e1o l\u00e0 ${v}$.", "Por lo tanto, el n\u00famero total de manzanas es {v}.",
    "\u0905\u0924\u0903 \u0938\u0947\u092c\u094b\u0902 \u0915\u0940 \u0915\u0941\u0932 \u0938\u0902\u0916\u094d\u092f\u093e {v} \u0939\u0948\u0964",
    "Also ist die Gesamtzahl der \u00c4pfel {v}.",
]
_COMMITS = ["\n#### {g}", "\n\n#### {g}", "\n\n\\boxed{{{g}}}", "\n\n**Answer:** {g}", "\n\nThe answer is {g}.",
            " So the answer is \\boxed{{{g}}}.", "\n\n**\u041e\u0442\u0432\u0435\u0442:** {g}",
            "\n\n\u0110\u00e1p s\u1ed1: {g}", "\n\nLa respuesta es {g}.", "\n\n\u0909\u0924\u094d\u0924\u0930: $\\boxed{{{g}}}$"]


@st.composite
def r16_concluded_rival(draw: st.DrawFn) -> Case:
    """The working's last sentence concludes an amount (``So Tom has 904 - 21 = 883 apples
    left.``, ``汤姆还剩564个。``, ``In total, the store spends $653.``), then the completion
    commits (``####``, a box, ``**Answer:**``, "The answer is") to the gold: paid when the two
    agree, never when they differ (two answers offered)."""
    g = draw(st.integers(12, 9999))
    same = draw(st.booleans())
    v = g if same else g + draw(st.sampled_from([-10, -2, -1, 1, 2, 100]))
    conclusion = draw(st.sampled_from(_CONCLUSIONS)).format(s=draw(st.sampled_from(_SUBJECTS)), v=v, o=v + 2,
                                                            n=draw(st.sampled_from(_NOUNS)))
    commit = draw(st.sampled_from(_COMMITS))
    if commit.startswith(" ") and not conclusion.endswith((".", "\u3002")):
        commit = "\n" + commit[1:]  # "..., so\nSo the answer is ..."
    lead = draw(st.sampled_from(["", "She buys 4 items at $3 each, which is 12.\n", "Tom starts with some apples.\n"]))
    return Case(f"{lead}{conclusion}{commit.format(g=g)}", str(g), "paid" if same else "not_paid",
                ("r16_concluded_rival", conclusion[:12]))


_CURRENCY_ANSWERS = [
    "Die Antwort ist {g} Euro.", "\uc815\ub2f5\uc740 {g} \uc6d0\uc785\ub2c8\ub2e4.",
    "\u0909\u0924\u094d\u0924\u0930 **{g} \u0930\u0941\u092a\u092f\u0947** \u0939\u0948\u0964",
    "\u041e\u0442\u0432\u0435\u0442: {g} \u0440\u0443\u0431\u043b\u044f.", "La respuesta es {g} d\u00f3lares.",
    "\u7b54\u6848\u662f **{g}** \u5143\u3002", "\u0110\u00e1p \u00e1n: {g} \u0111\u1ed3ng.", "#### {g}\u5143",
    "#### {g} \u0440\u0443\u0431\u043b\u0435\u0439", "The answer is {g} dollars.",
    # (h47: counters, and currencies of Arabic)
    "**\uc815\ub2f5:** {g}\uac1c", "\u7b54\u3048\uff1a{g}\u500b", "\u0110\u00e1p s\u1ed1: {g} qu\u1ea3",
    "**\u0627\u0644\u0625\u062c\u0627\u0628\u0629:** {g} \u0631\u064a\u0627\u0644", "#### {g}\uac1c",
    "\u067e\u0627\u0633\u062e {g} \u0627\u0633\u062a.",  # (h48: a Persian copula)
]
_CURRENCY_RIVALS = [" \u0438\u043b\u0438 {r}", " o {r}", " oder {r}", "\u6216 {r}", " \u0e2b\u0e23\u0e37\u0e2d {r}", ", not {r}"]


@st.composite
def r16_conclusion_kept(draw: st.DrawFn) -> Case:
    """A last sentence that states the answer in another unit (``150,000 meters`` then ``150
    km``), a variable's value (``Y = 12 cm``), or several amounts (``so 4 boxes hold 48
    eggs``) concludes nothing against the answer: paid."""
    g = draw(st.integers(2, 999))
    text = draw(st.sampled_from([
        "{a} - 12000 = {k},000 meters\nTelegraph is {g} km longer than Pardee Road.",
        "6Y = {y}\nY = {h} cm\nThe red rope was {g} cm long.",
        "Each box holds 12 eggs, so {g} boxes hold {e} eggs.\n#### {g}",
    ]))
    return Case(text.format(g=g, a=g * 1000 + 12000, k=g, y=2 * (g // 2 + 1), h=g // 2 + 1, e=12 * g),
                str(g), "paid", ("r16_conclusion_kept", text[:10]))


@st.composite
def r16_currency_words(draw: st.DrawFn) -> Case:
    """An amount with a currency word of its language (``108 Euro``, ``72 рубля``, ``94
    원입니다``, ``72 元``) is paid; the same with a second amount joined to it is never paid."""
    g = draw(st.integers(2, 9999))
    text = draw(st.sampled_from(_CURRENCY_ANSWERS)).format(g=g)
    rival = draw(st.booleans())
    if rival:
        cut = len(text) - len(text.rstrip(".\u3002\u0964"))
        body, stop = (text[:-cut], text[-cut:]) if cut else (text, "")
        text = body + draw(st.sampled_from(_CURRENCY_RIVALS)).format(r=g + 1) + stop
    working = "Er kauft 4 Hefte zu je 27 Euro: 4 * 27 = 108.\n"
    return Case(working + text, str(g), "not_paid" if rival else "paid", ("r16_currency_words", str(rival)))


@st.composite
def r16_choice_lead(draw: st.DrawFn) -> Case:
    """A choice letter after "the correct answer is" of another language (``La respuesta
    correcta es la B.``, ``Đáp án đúng là A.``) commits to it: paid for that letter only."""
    letter = draw(st.sampled_from("ABCDE"))
    right = draw(st.booleans())
    text = draw(st.sampled_from(["La respuesta correcta es la {l}.", "La respuesta es la opci\u00f3n {l}.",
                                 "\u0110\u00e1p \u00e1n \u0111\u00fang l\u00e0 {l}.", "\u0110\u00e1p \u00e1n l\u00e0 {l}.",
                                 "\u0110\u00e1p \u00e1n cu\u1ed1i c\u00f9ng l\u00e0 {l}.", "\u7b54\u6848\u9009 {l}\u3002",
                                 "\u6b63\u89e3\u306f {l} \u3067\u3059\u3002", "Option {l} is correct.",
                                 "\u0627\u0644\u0625\u062c\u0627\u0628\u0629 \u0627\u0644\u0635\u062d\u064a\u062d\u0629 \u0647\u064a ({l}).",
                                 "\u0938\u0939\u0940 \u0909\u0924\u094d\u0924\u0930 ({l}) \u0939\u0948\u0964"]))
    gold = letter if right else chr(ord(letter) + 1)
    return Case(text.format(l=letter), gold, "paid" if right else "not_paid", ("r16_choice_lead", str(right)))


@st.composite
def r16_choice_with_text(draw: st.DrawFn) -> Case:
    """A marked choice letter followed by its option's text (``The answer is (A) 37.``) commits
    to the letter: paid for that letter; never when the text names another letter or an
    alternative (``Answer: (B) D``, ``(A) 37 or 38``)."""
    letter = draw(st.sampled_from("ABCD"))
    kind = draw(st.sampled_from(["value", "letter", "or", "wrong"]))
    other = chr(ord(letter) + 1)
    text = {"value": f"The answer is ({letter}) 37.", "letter": f"Answer: ({letter}) {other}",
            "or": f"The answer is ({letter}) 37 or 38.", "wrong": f"The answer is ({other}) 37."}[kind]
    return Case(text, letter, "paid" if kind == "value" else "not_paid", ("r16_choice_with_text", kind))


@st.composite
def r16_answer_table(draw: st.DrawFn) -> Case:
    """A table whose last row labels the answer (``| Answer | 708 |``) commits to it: paid
    alone, never with a rival row or a second value in the cell."""
    g = draw(st.integers(2, 9999))
    rival = draw(st.booleans())
    label = draw(st.sampled_from(["Answer", "Final answer", "Total", "**Answer**", "**Final answer**", "\u7b54\u6848"]))
    rows = [f"| {label} | {g} |"]
    if rival:
        how = draw(st.sampled_from(["row", "cell", "maybe"]))
        if how == "row":
            rows.insert(0, f"| {label} | {g + 1} |")
        elif how == "cell":
            rows[0] = f"| {label} | {g + 1} or {g} |"
        else:
            rows[0] = f"| {label} | {g} (maybe {g + 1}) |"
    shape = draw(st.sampled_from(["rows", "rule after", "column"]))
    if shape == "column":  # "| Answer |\n|---|\n| 45 |"
        cells = [f"| {g} |"] if not rival else [f"| {g + 1} |", f"| {g} |"]
        text = f"First, 18 + 19 = 37.\n\n| {label} |\n|---|\n" + "\n".join(cells)
    elif shape == "rule after":  # "| **Final answer** | **677** |\n|---|---|"
        text = "First, 18 + 19 = 37.\n\n" + "\n".join(rows) + "\n|---|---|"
    else:
        text = "First, 18 + 19 = 37.\n\n| Quantity | Value |\n|---|---|\n" + "\n".join(rows)
    return Case(text, str(g), "not_paid" if rival else "paid", ("r16_answer_table", str(rival)))


@st.composite
def r16_derivation_before(draw: st.DrawFn) -> Case:
    """A relation right before the commitment equates a side of plain arithmetic or a whole
    number with it (``2 + 3 = \\boxed{6}``, ``**7** \u2248 #### 5``, ``The total is 4 * 5 =
    \\boxed{21}``): paid only when the side equals the gold."""
    a, b = draw(st.integers(1, 99)), draw(st.integers(1, 99))
    op = draw(st.sampled_from(["+", "*", "-"]))
    v = a + b if op == "+" else a * b if op == "*" else a - b
    right = draw(st.booleans())
    g = v if right else v + draw(st.sampled_from([-1, 1, 10]))
    side = draw(st.sampled_from([f"{a} {op} {b}", f"**{v}**", f"{v}"]))
    relation = draw(st.sampled_from([" = ", " \u2248 "]))
    text = draw(st.sampled_from(["{s}{r}\\boxed{{{g}}}", "The total is {s}{r}\\boxed{{{g}}}.", "${s}{r}\\boxed{{{g}}}$",
                                 "So {s}{r}#### {g}"]))
    return Case(text.format(s=side, r=relation, g=g), str(g), "paid" if right else "not_paid",
                ("r16_derivation_before", relation.strip()))


R16_PROPERTIES: list[Property] = [
    Property("r16_math_failure_after_count", "math", r16_failure_after_count(), 150),
    Property("r16_gsm8k_failure_after_count", "gsm8k", r16_failure_after_count(), 150),
    Property("r16_math_concluded_rival", "math", r16_concluded_rival(), 200),
    Property("r16_gsm8k_concluded_rival", "gsm8k", r16_concluded_rival(), 200),
    Property("r16_math_conclusion_kept", "math", r16_conclusion_kept(), 60),
    Property("r16_math_currency_words", "math", r16_currency_words(), 150),
    Property("r16_gsm8k_currency_words", "gsm8k", r16_currency_words(), 150),
    Property("r16_math_choice_lead", "math", r16_choice_lead(), 100),
    Property("r16_math_answer_table", "math", r16_answer_table(), 100),
    Property("r16_math_derivation_before", "math", r16_derivation_before(), 150),
    Property("r16_math_choice_with_text", "math", r16_choice_with_text(), 60),
]
