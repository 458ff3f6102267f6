"""Round 20 of the reward grammars (issue 30: h54's Roman numerals, the blind h55 set), run by
``tests/test_reward_properties.py``. Each generator's docstring states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

_ROMAN = {2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX", 10: "X", 11: "XI",
          12: "XII", 13: "XIII", 14: "XIV", 15: "XV", 16: "XVI", 17: "XVII", 18: "XVIII", 19: "XIX", 20: "XX",
          40: "XL", 90: "XC", 246: "CCXLVI", 801: "DCCCI"}
# The Roman numeral characters U+2160-U+216B (upper) and U+2170-U+217B (lower): one character each
# for 1 to 12.
_ROMAN_CHAR = {k: chr(0x2160 + k - 1) for k in range(1, 13)}
_ROMAN_SMALL = {k: chr(0x2170 + k - 1) for k in range(1, 13)}
_FINAL = ["$\\boxed{{{g}}}$", "#### {g}", "**Answer: {g}**", "The answer is {g}.", "Final answer: {g}",
          "Therefore, the final answer is $\\boxed{{{g}}}$."]
# (working that concludes no amount: a last line "4 + 5 = 9 apples are left." is a conclusion)
_WORKING = ["We read the question carefully.", "We multiply the price by the count.",
            "Let me check the steps once more."]


def _roman(k: int, form: str) -> str:
    if form == "char":
        return _ROMAN_CHAR[k]
    if form == "small":
        return _ROMAN_SMALL[k]
    return _ROMAN[k]


@st.composite
def r20_roman_in_slots(draw: st.DrawFn) -> Case:
    """A value other than the gold written as a Roman numeral (the numeral characters, upper or
    lower case, or upper-case letters) in a value's slot: after a copula or a label's colon
    ("The result is XVI.", "The total is IX apples.", "My first guess: VII.", "**Answer:**
    DCCCI Hope this helps!", "Die Antwort ist XVII."), in the final paragraph before its answer
    or in the paragraph before: never paid. The gold written as a numeral character after "The
    answer is" is paid."""
    g = draw(st.integers(2, 12))
    form = draw(st.sampled_from(["char", "small", "letters"]))
    if draw(st.integers(0, 4)) == 0:
        x = _roman(g, "char" if form == "letters" else form)
        return Case(f"{draw(st.sampled_from(_WORKING))}\n\nThe answer is {x}.", str(g), "paid", ("r20_roman_gold", form))
    choices = [k for k in (_ROMAN if form == "letters" else _ROMAN_CHAR) if k != g and not (form == "small" and k == 1)]
    k = draw(st.sampled_from(choices))
    x = _roman(k, form)
    slot = draw(st.sampled_from(["The result is {x}.", "The total is {x} apples.", "My first guess: {x}.",
                                 "**Answer:** {x} Hope this helps!", "Die Antwort ist {x}.", "So it is {x}.",
                                 "The answer is {x}."]))
    where = draw(st.sampled_from(["same_para", "para_before"]))
    if form == "letters" and len(x) == 1 and "{x} " in slot:
        slot = "The result is {x}."  # (one letter before a word may be a variable: "V cubic units")
    stated = slot.format(x=x)
    joiner = " " if where == "same_para" else "\n\n"
    text = f"{draw(st.sampled_from(_WORKING))}\n\n{stated}{joiner}{draw(st.sampled_from(_FINAL)).format(g=g)}"
    return Case(text, str(g), "not_paid", ("r20_roman_slot", form, where, slot))


_SUBJECTS = ["So he makes", "Thus, Amy has", "Together, they have", "Then there are", "So she pays", "In total we get"]
_NOUNS = ["eyeshadow colors left", "a week", "pages", "rows", "unoccupied beds", "marbles", "in the budget"]


@st.composite
def r20_working_result(draw: st.DrawFn) -> Case:
    """The working's last line computes a result ("So he makes $180*7=$1267 a week", "Together,
    they have 84 sofas+88 chairs = 175", "Thus, Amy has 22 - 3 = 119 eyeshadow colors left.")
    and the answer after it names another amount, or names the same amount that the line denies
    or qualifies ("6 + 3 = not 9 rows.", "= ~9", "= about 9"): never paid. The same result,
    stated plainly, is paid."""
    a, b = draw(st.integers(2, 60)), draw(st.integers(2, 60))
    op = draw(st.sampled_from(["+", "*", "-"]))
    result = a + b if op == "+" else a * b if op == "*" else a - b
    if result <= 0:
        a, b, result, op = b + a, b, a + b + b, "+"
    dollars = draw(st.booleans())
    noun_in_operands = draw(st.booleans())
    kind = draw(st.sampled_from(["other", "denied", "same"]))
    stated = result if kind != "other" else result + draw(st.sampled_from([-7, -1, 1, 3, 10]))
    sign = "$" if dollars else ""
    if noun_in_operands and op == "+":
        computation = f"{sign}{a} apples+{sign}{b} pears = "
        noun = ""
    else:
        computation = f"{sign}{a} {op} {sign}{b} = "
        noun = " " + draw(st.sampled_from(_NOUNS))
    # (no "~": in LaTeX it is a tie, a space)
    qualifier = draw(st.sampled_from(["not ", "about ", "\u2248 ", "approximately "])) if kind == "denied" else ""
    line = f"{draw(st.sampled_from(_SUBJECTS))} {computation}{qualifier}{sign}{stated}{noun}"
    if stated <= 0:
        return Case(f"{line}.\n#### {result}", str(result), "not_paid", ("r20_working_result", "other"))
    final = draw(st.sampled_from(["#### {g}", "Therefore, the answer is $\\boxed{{{g}}}$.", "The answer is {g}.",
                                  "\n**Final answer:** {g}"])).format(g=result)
    bullet = draw(st.sampled_from(["", "- ", "**Step 3:** "]))
    text = f"{bullet}{line}.\n{final}"
    return Case(text, str(result), "paid" if kind == "same" else "not_paid",
                ("r20_working_result", kind, "dollars" if dollars else "plain", bullet.strip() or "bare"))


@st.composite
def r20_equation_chain(draw: st.DrawFn) -> Case:
    """A math span whose chain of plain sides ends in the box ("they have $79 = \\boxed{59}$",
    "The minimum value is $14 = \\boxed{64}$", "$3 = 4 = \\boxed{4}$"): a side that is another
    number offers it, never paid. A chain whose every side equals the box ("$2+2 = 4 =
    \\boxed{4}$") is paid."""
    g = draw(st.integers(2, 99))
    lead = draw(st.sampled_from(["The minimum value is", "they have", "So", "Hence", "We get", ""]))
    kind = draw(st.sampled_from(["other_number", "other_in_chain", "true_chain"]))
    if kind == "other_number":
        n = draw(st.integers(2, 99).filter(lambda v: v != g))
        span = f"${n} = \\boxed{{{g}}}$"
    elif kind == "other_in_chain":
        n = draw(st.integers(2, 99).filter(lambda v: v != g))
        span = f"${n} = {g} = \\boxed{{{g}}}$"
    else:
        a = draw(st.integers(1, g - 1))
        span = f"${a}+{g - a} = {g} = \\boxed{{{g}}}$"
    text = f"{draw(st.sampled_from(_WORKING))}\n{lead} {span}.".replace("\n ", "\n")
    return Case(text, str(g), "paid" if kind == "true_chain" else "not_paid", ("r20_equation_chain", kind, lead or "none"))


@st.composite
def r20_question_answer_lines(draw: st.DrawFn) -> Case:
    """A "Q:" line and the "A:" line that answers it, in an earlier paragraph or right before
    the final answer: an "A:" value other than the gold stands as an answer, never paid; the
    gold there is paid."""
    g = draw(st.integers(2, 500))
    same = draw(st.booleans())
    x = g if same else draw(st.integers(2, 500).filter(lambda v: v != g))
    question = draw(st.sampled_from(["What is the answer?", "How many apples are left?", "How much does it cost?"]))
    where = draw(st.sampled_from(["para_before", "same_para"]))
    qa = f"Q: {question}\nA: {x}{draw(st.sampled_from(['', '.']))}"
    final = draw(st.sampled_from(["#### {g}", "The answer is {g}.", "$\\boxed{{{g}}}$"])).format(g=g)
    text = f"{qa}\n\n{draw(st.sampled_from(_WORKING))}\n{final}" if where == "para_before" else f"{qa}\n{final}"
    return Case(text, str(g), "paid" if same else "not_paid", ("r20_qa", where, "same" if same else "other"))


@st.composite
def r20_signed_base_numerals(draw: st.DrawFn) -> Case:
    """A signed numeral under a base subscript in the box ("\\boxed{-12_{3}}", "\\boxed{-6_3}")
    is that base's number, never the gold's plain digits ("-12"): never paid. The same signed
    numeral as the gold is paid."""
    base = draw(st.integers(2, 9))
    digits = draw(st.text(alphabet="0123456789", min_size=1, max_size=3).filter(lambda d: d.lstrip("0") != ""))
    digits = digits.lstrip("0")
    sub = draw(st.sampled_from(["_{%d}", "_%d"])) % base
    same = draw(st.booleans())
    if same and all(int(c) < base for c in digits):
        return Case(f"The answer is $\\boxed{{-{digits}{sub}}}$.", f"-{digits}_{{{base}}}", "paid", ("r20_base", "same"))
    return Case(f"The answer is $\\boxed{{-{digits}{sub}}}$.", f"-{digits}", "not_paid", ("r20_base", "plain_gold"))


_CHANNELS = ["<|channel|>analysis<|message|>{w}<|end|><|start|>assistant<|channel|>final<|message|>{a}<|return|>",
             "<|start|>assistant<|channel|>analysis<|message|>{w}<|end|><|channel|>final<|message|>{a}",
             "<|channel|>final<|message|>{a}<|return|>",
             "<|im_start|>assistant\n{w}\n{a}<|im_end|>",
             "<|start_header_id|>assistant<|end_header_id|>\n\n{w}\n{a}<|eot_id|>",
             "<|assistant|>\n{w}\n{a}<|end|>",
             "<start_of_turn>model\n{w}\n{a}<end_of_turn>"]


@st.composite
def r20_chat_turns(draw: st.DrawFn) -> Case:
    """The answer in gpt-oss's final channel or after an assistant's role header is paid when it
    is the gold; a second value after the answer's end of turn, or an alternative beside the
    answer in the final channel, is never paid."""
    g = draw(st.integers(2, 500))
    x = draw(st.integers(2, 500).filter(lambda v: v != g))
    template = draw(st.sampled_from(_CHANNELS))
    answer = draw(st.sampled_from(["$\\boxed{{{g}}}$", "The answer is {g}.", "Final answer: {g}"])).format(g=g)
    kind = draw(st.sampled_from(["honest", "after_end", "beside"]))
    if kind == "beside":
        answer += draw(st.sampled_from([" or {x}", " Actually {x}.", "\n\nFinal answer: {x}"])).format(x=x)
    text = template.format(w=draw(st.sampled_from(_WORKING)), a=answer)
    if kind == "after_end":
        text += draw(st.sampled_from(["\nThe answer is {x}.", " {x}", "\n\\boxed{{{x}}}"])).format(x=x)
    return Case(text, str(g), "paid" if kind == "honest" else "not_paid", ("r20_chat", kind, template[:12]))


_FINANCIAL = "\u96f6\u58f9\u8d30\u53c1\u8086\u4f0d\u9646\u67d2\u634c\u7396"


@st.composite
def r20_financial_numerals(draw: st.DrawFn) -> Case:
    """A value other than the gold in Chinese financial numerals ("拾陆" is 16) offered before the
    answer ("So it's 拾陆., \\boxed{9}"): never paid."""
    g = draw(st.integers(1, 99))
    k = draw(st.integers(11, 99).filter(lambda v: v != g))
    tens, ones = divmod(k, 10)
    x = ("" if tens == 1 else _FINANCIAL[tens]) + "\u62fe" + (_FINANCIAL[ones] if ones else "")
    lead = draw(st.sampled_from(["So it's {x}.", "The total is {x}.", "I got {x}."])).format(x=x)
    final = draw(st.sampled_from(_FINAL)).format(g=g)
    return Case(f"{lead} {final}", str(g), "not_paid", ("r20_financial",))


_AGAINST = [
    "So the result is not {g}.", "So it is {o} instead of {g}.", "That is {o} rather than {g}.", "So $x \\neq {g}$.",
    "Hence $x \\ne {g}$.", "Hence $x \\not= {g}$.", "Therefore $x < {g}$.", "So $x$ cannot be {g}.",
    "This rules out $x = {g}$.", "Then {a} + {b} = maybe {g} left.", "Het resultaat is dus niet {g}.",
    "\u6240\u4ee5\u7ed3\u679c\u4e0d\u662f {g}\u3002", "\u3057\u305f\u304c\u3063\u3066\u3001\u7d50\u679c\u306f {g} \u3067\u306f\u3042\u308a\u307e\u305b\u3093\u3002",
    "Yani sonu\u00e7 {g} de\u011fil.", "Checking again gives {o}.", "Wait, recomputing: {o}.",
    "Some would say {o}, which is also acceptable.", "(Note: the book says {o}.)", "If we count differently, we get {o}.",
    "Kim has {g} paintings, except on weekends, when it is {o}.", "Het resultaat is dus {o}.", "Das Ergebnis ist also {o}.",
    "Quindi il risultato \u00e8 {o}.", "Le r\u00e9sultat est donc {o}.", "Finally, $x = {a} + {b} = {o}$.",
    "$$x = \\frac{{{o2}}}{{2}} = {o}$$", "Numerically, $x \\approx {far}$.", "Hmm, that gives {o} actually.",
    "Total: {o}.", "In total there are {a} girls + {b} boys = {o} kids in the park.",
]
_HONEST = ["So there are {a} + {b} = {g} apples left.", "In total there are {a} girls + {b} boys = {g} kids in the park.",
           "Checking again gives {g}.", "Total: {g}.", "So the result is {g}.", "Finally, $x = {a} + {b} = {g}$."]


@st.composite
def r20_working_against(draw: st.DrawFn) -> Case:
    """The working's last sentence, on its own line or paragraph before the final answer (in a
    list item, under a step label, in a table row, or plain), takes the answer back or offers
    another value: the answer's value after a word or relation that denies or qualifies it
    ("not", "instead of", "rather than", "maybe", "\\neq", "\\not=", "x <", "rules out", "niet",
    "不是", "ではありません", "değil"), a recheck or a source that gives another value ("Checking
    again gives 604.", "(Note: the book says 36.)", "Some would say 16, which is also
    acceptable."), a result stated in another language, a variable's chain or approximation
    that ends elsewhere: never paid. The same shapes that state the answer itself are paid."""
    a = draw(st.integers(2, 60))
    b = draw(st.integers(2, 60))
    honest = draw(st.integers(0, 3)) == 0
    g = a + b
    o = g + draw(st.sampled_from([-7, -1, 1, 2, 10, 100]))
    line = draw(st.sampled_from(_HONEST if honest else _AGAINST)).format(
        g=g, o=o, a=a, b=b, o2=2 * o, far=2 * g + 10)
    wrapper = draw(st.sampled_from(["plain", "bullet", "step", "table"]))
    if wrapper == "bullet":
        line = f"- {line}"
    elif wrapper == "step":
        line = f"**Step 3:** {line}"
    elif wrapper == "table":
        line = f"| Step | Working |\n|---|---|\n| 1 | We add them. |\n| 2 | {line} |"
    gap = draw(st.sampled_from(["\n", "\n\n"]))
    final = draw(st.sampled_from(["#### {g}", "Answer: {g}", "$\\boxed{{{g}}}$", "**Final Answer:** {g}",
                                  "Therefore, the final answer is {g}."])).format(g=g)
    text = f"We add the two amounts.\n{line}{gap}{final}"
    return Case(text, str(g), "paid" if honest else "not_paid", ("r20_working_against", wrapper, line[:24]))


R20_PROPERTIES: list[Property] = [
    Property("r20_math_roman_in_slots", "math", r20_roman_in_slots(), 200),
    Property("r20_gsm8k_roman_in_slots", "gsm8k", r20_roman_in_slots(), 200),
    Property("r20_gsm8k_working_result", "gsm8k", r20_working_result(), 250),
    Property("r20_math_working_result", "math", r20_working_result(), 150),
    Property("r20_math_equation_chain", "math", r20_equation_chain(), 200),
    Property("r20_math_question_answer_lines", "math", r20_question_answer_lines(), 100),
    Property("r20_gsm8k_question_answer_lines", "gsm8k", r20_question_answer_lines(), 100),
    Property("r20_math_signed_base_numerals", "math", r20_signed_base_numerals(), 100),
    Property("r20_math_chat_turns", "math", r20_chat_turns(), 150),
    Property("r20_gsm8k_chat_turns", "gsm8k", r20_chat_turns(), 150),
    Property("r20_math_financial_numerals", "math", r20_financial_numerals(), 100),
    Property("r20_gsm8k_working_against", "gsm8k", r20_working_against(), 300),
    Property("r20_math_working_against", "math", r20_working_against(), 300),
]
