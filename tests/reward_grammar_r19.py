"""Round 19 of the reward grammars (issue 30: h52's last shapes), run by
``tests/test_reward_properties.py``. Each generator's docstring states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

_SUPERSCRIPT = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
_SUBSCRIPT = str.maketrans("0123456789", "".join(chr(0x2080 + d) for d in range(10)))
_MONOSPACE = str.maketrans("0123456789", "".join(chr(0x1D7F6 + d) for d in range(10)))
_ARABIC_INDIC = str.maketrans("0123456789", "".join(chr(0x0660 + d) for d in range(10)))
_CJK = "\u3007\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d"
_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX", 10: "X", 11: "XI",
          12: "XII", 13: "XIII", 14: "XIV", 15: "XV", 16: "XVI", 17: "XVII", 18: "XVIII", 19: "XIX", 20: "XX"}
_FORMS = ["ascii", "superscript", "subscript", "monospace", "arabic_indic", "keycap", "negative_circled",
          "dingbat_circled", "double_circled", "cjk", "roman"]


def _numeral(k: int, form: str) -> str:
    """``k`` (1 to 20) written in ``form``."""
    digits = str(k)
    if form in ("superscript", "subscript", "monospace", "arabic_indic"):
        return digits.translate({"superscript": _SUPERSCRIPT, "subscript": _SUBSCRIPT, "monospace": _MONOSPACE,
                                 "arabic_indic": _ARABIC_INDIC}[form])
    if form == "keycap":
        return "".join(d + "\u20e3" for d in digits)
    if form == "negative_circled":
        return chr(0x2776 + k - 1) if k <= 10 else chr(0x24EB + k - 11)
    if form == "dingbat_circled":
        return chr(0x278A + k - 1) if k <= 10 else chr(0x24EB + k - 11)
    if form == "double_circled":
        return chr(0x24F5 + k - 1) if k <= 10 else chr(0x24EB + k - 11)
    if form == "cjk":
        return "".join(_CJK[int(d)] for d in digits)
    return _ROMAN[k] if form == "roman" else digits


_FINAL = ["$\\boxed{{{g}}}$", "#### {g}", "**Answer: {g}**", "The answer is {g}.", "Final answer: {g}",
          "\u041e\u0442\u0432\u0435\u0442: $\\boxed{{{g}}}$.", "\u7b54\u6848\u662f {g}\u3002"]
_WORKING = ["First, 4 + 5 = 9 apples are left.", "We multiply the price by the count: 3 x 4 = 12.",
            "Let me check the steps once more."]


@st.composite
def r19_numerals_anywhere(draw: st.DrawFn) -> Case:
    """A value other than the gold, written in any numeral form (superscript, subscript,
    monospace, Arabic-Indic, keycap, circled, CJK or Roman numerals), offered where a reader
    sees another answer: between two commitments of the final paragraph, before an answer
    label on its line, after a label in the working's last line ("Result: X", "(Answer: X)",
    "[Answer: X]", "\u00abR\u00e9ponse : X\u00bb", "\u27e8answer\u27e9 X"), or marked final at the end of a working
    line ("X \U0001f448 final answer"): never paid. The gold after a label in the working or
    marked final there is paid."""
    g = draw(st.integers(1, 20))
    same = draw(st.booleans())
    k = g if same else draw(st.integers(1, 20).filter(lambda n: n != g))
    form = draw(st.sampled_from(_FORMS))
    if form == "roman" and k == 1:
        form = "ascii"  # ("I" alone is a pronoun)
    x = _numeral(k, form)
    final = draw(st.sampled_from(_FINAL))
    where = draw(st.sampled_from(["between", "before_label", "working_label", "marked_final"]))
    if where == "between":
        commit = draw(st.sampled_from(["Answer: $\\boxed{{{g}}}$.", "The final answer is $\\boxed{{{g}}}$.",
                                       "\u041e\u0442\u0432\u0435\u0442: $\\boxed{{{g}}}$."])).format(g=g)
        joiner = draw(st.sampled_from([" {x} ", " / {x} / ", " \U0001f914 {x} \U0001f914 ", " or {x} or "])).format(x=x)
        text = f"{commit}{joiner}{commit}"
        if form == "roman" and "or" not in joiner:
            text = f"{commit} / {x} / {commit}"
    elif where == "before_label":
        # (after a sentence on its line: one that opens a line before its text numbers a step)
        text = f"{draw(st.sampled_from(_WORKING))}\n\nSo that is it. {x} Answer: $\\boxed{{{g}}}$."
    elif where == "working_label":
        label = draw(st.sampled_from(["Result: {x} \U0001f3af", "(Answer: {x} \u2705)", "[Answer: {x}]",
                                      "\u00abR\u00e9ponse : {x}\u00bb", "\u27e8answer\u27e9 {x}"])).format(x=x)
        text = f"{draw(st.sampled_from(_WORKING))} {label}\n\n{final.format(g=g)}"
    else:
        text = f"{draw(st.sampled_from(_WORKING))}\nSo that is it. {x} \U0001f448 final answer\n\n{final.format(g=g)}"
    # (the gold beside itself between two commitments, or before a label, is no ordinary
    # dressing: either verdict is sound)
    expect = "not_paid" if not same else "paid" if where in ("working_label", "marked_final") else "either"
    return Case(text, str(g), expect, ("r19_numerals_anywhere", where, form))


@st.composite
def r19_countdown_earlier(draw: st.DrawFn) -> Case:
    """Countdown: an expression offered in an earlier paragraph under a tag named for an answer
    (``<final>``, ``<Answer>``, ``<result>``), in a table's answer column, or on a line of code
    marked as the answer stands beside the final ``<answer>``: never paid when the two differ;
    paid when they are the same expression and it is right."""
    a, b, c = draw(st.integers(2, 20)), draw(st.integers(2, 20)), draw(st.integers(2, 20))
    right = f"({a}+{b})*{c}"
    same = draw(st.booleans())
    other = right if same else f"{a}+{b}+{c}"
    shape = draw(st.sampled_from(["<final>{e}</final>", "<Answer>\n{e}\n</Answer>", "<result>{e}</result>",
                                  "| \u7b54\u6848 |\n|---|\n| {e} |", "| Answer |\n|---|\n| {e} |",
                                  "```\nprint({e})  # answer\n```", "```python\nx = {e}  # final\n```"]))
    text = f"{shape.format(e=other)}\n\nLet me check it.\n\n<answer>{right}</answer>"
    return Case(text, str((a + b) * c), "paid" if same else "not_paid", ("r19_countdown_earlier", shape[:8]),
                numbers=(a, b, c))


@st.composite
def r19_reasoning_markers(draw: st.DrawFn) -> Case:
    """Other models' reasoning delimiters (Kimi's ``\u25c1think\u25b7 ... \u25c1/think\u25b7``, Magistral's
    ``[THINK]``, Seed's ``<seed:think>``, ``<|begin_of_thought|>``) delimit a reasoning block as
    ``<think>`` does: a guess between two blocks stands (never paid when it is not the gold),
    and one inside a block is working (paid when the answer after the blocks is right)."""
    g = draw(st.integers(10, 999))
    v = g + draw(st.sampled_from([1, -1, 10]))
    guess = draw(st.sampled_from(["Hmm, maybe {v}.", "Actually, it is {v}."])).format(v=v)
    inside = draw(st.booleans())
    o, c = draw(st.sampled_from([("\u25c1think\u25b7", "\u25c1/think\u25b7"), ("[THINK]", "[/THINK]"),
                                 ("<seed:think>", "</seed:think>"), ("<|begin_of_thought|>", "<|end_of_thought|>")]))
    if inside:
        text = f"{o}\nLet me work it out.\n{guess}\n{c}\n\n"
    else:
        text = f"{o}\nLet me work it out.\n{c}\n{guess}\n{o}\nDouble-check.\n{c}\n\n"
    text += draw(st.sampled_from(_FINAL)).format(g=g)
    return Case(text, str(g), "paid" if inside else "not_paid", ("r19_reasoning_markers", o[:4], str(inside)))


@st.composite
def r19_format_enclosing_marks(draw: st.DrawFn) -> Case:
    """Format: an enclosing mark (a circle, a square, a keycap, "\u0489") outside the tags draws a
    shape, so it is text outside the tags: never paid when text outside is not allowed."""
    mark = draw(st.sampled_from(["\u20dd", "\u20de", "\u20df", "\u20e0", "\u20e3", "\u0489", "\u0488"]))
    where = draw(st.sampled_from(["before", "between", "after"]))
    think, answer = "<think>\nI add 2 and 3.\n</think>", "<answer>\n5\n</answer>"
    parts = {"before": f"{mark}\n{think}\n{answer}", "between": f"{think}\n{mark}\n{answer}",
             "after": f"{think}\n{answer}\n{mark}"}
    return Case(parts[where], "", "not_paid", ("r19_format_enclosing_marks", where, f"U+{ord(mark):04X}"))


_OFFER_OPENERS = ["Let me know if you'd like", "If you want, I can", "Would you like me to", "Feel free to reach out if you'd like",
                  "Happy to help with", "Do you want me to", "If you'd like, I can also"]
_OFFER_OBJECTS = ["a more detailed explanation", "walk through the arithmetic again", "explain another method",
                  "more practice problems", "any follow-up questions", "show a second approach", "generalize this result"]
_OFFER_HEDGES = ["the other root is {k}", "{k} also works", "it could be {k}", "I think it is {k}",
                 "the answer might be different", "this is probably wrong", "it is not {g}"]


@st.composite
def r19_help_closings(draw: st.DrawFn) -> Case:
    """A closing paragraph that offers more help ("Let me know if you'd like a more detailed
    explanation!", "Would you like me to explain another method?", "Good luck with your
    studies!") after a right final answer is paid; one that says anything else after the
    offer's opener (another value, a doubt, a negation) is never paid."""
    g = draw(st.integers(2, 999))
    k = g + draw(st.sampled_from([1, -1, 10]))
    final = draw(st.sampled_from(_FINAL)).format(g=g)
    opener = draw(st.sampled_from(_OFFER_OPENERS))
    honest = draw(st.booleans())
    rest = draw(st.sampled_from(_OFFER_OBJECTS)) if honest else draw(st.sampled_from(_OFFER_HEDGES)).format(k=k, g=g)
    end = draw(st.sampled_from([".", "!", "?", " 😊"]))
    closing = f"{opener} {rest}{end}" if draw(st.booleans()) else f"Good luck with your studies{end}"
    if not honest and "Good luck" in closing:
        closing = f"{opener} {rest}{end}"
    return Case(f"We add the parts.\n\n{final}\n\n{closing}", str(g), "paid" if honest else "not_paid",
                ("r19_help_closings", opener[:12], str(honest)))


@st.composite
def r19_format_declarations(draw: st.DrawFn) -> Case:
    """Format: a markup declaration outside the tags (``<!DOCTYPE ...>``, ``<!ENTITY ...>``,
    ``<! ...>``) that holds a value is text there: never paid when text outside is not
    allowed; one that holds none (``<!DOCTYPE html>``) draws nothing: paid."""
    value = draw(st.booleans())
    body = draw(st.sampled_from(["the real answer is {v}", "{v}", "or maybe {v}", 'ans "{v}"'])).format(
        v=draw(st.sampled_from(["7", "seven", "B"]))) if value else draw(st.sampled_from(["html", ""]))
    keyword = draw(st.sampled_from(["DOCTYPE ", "doctype ", "ENTITY ", "ATTLIST ", "NOTATION ", "X ", ""]))
    decl = f"<!{keyword}{body}>"
    where = draw(st.sampled_from(["before", "between", "after"]))
    parts = {"before": f"{decl}<think>x</think><answer>4</answer>", "between": f"<think>x</think>{decl}<answer>4</answer>",
             "after": f"<think>x</think><answer>4</answer>{decl}"}
    return Case(parts[where], "", "not_paid" if value else "paid", ("r19_format_declarations", where, keyword))


_SIGN_OFFS = ["Cheers,\nYour math assistant", "P.S. Great question! \U0001f44d", "Thanks for asking! \U0001f64f",
              "Best regards!", "\u304a\u5f79\u306b\u7acb\u3066\u308c\u3070\u5e78\u3044\u3067\u3059\uff01",
              "\u5e0c\u671b\u5bf9\u4f60\u6709\u5e2e\u52a9\uff01", "\u00a1Buena suerte!", "Have a great day!",
              "Si tienes alguna otra pregunta, no dudes en preguntar.", "Mam nadziej\u0119, \u017ce to pomo\u017ce! \U0001f60a",
              "Jika ada pertanyaan lain, jangan ragu untuk bertanya.", "N'h\u00e9sitez pas \u00e0 poser d'autres questions."]
_SMUGGLED = ["Cheers, {k} works too.", "P.S. it could be {k}.", "Thanks, but I am not sure.",
             "Si tienes alguna otra pregunta, la respuesta es {k}.",
             "Great question, the answer might be {k}!", "Best regards, though {k} is also possible."]


@st.composite
def r19_sign_offs(draw: st.DrawFn) -> Case:
    """A sign-off after a right final answer (``Cheers,``, ``Best regards!``, ``P.S. Great
    question!``, ``\u304a\u5f79\u306b\u7acb\u3066\u308c\u3070\u5e78\u3044\u3067\u3059\uff01``) is paid; one that carries another
    value, a doubt or an alternative is never paid."""
    g = draw(st.integers(2, 999))
    k = g + draw(st.sampled_from([1, -1, 10]))
    honest = draw(st.booleans())
    closing = draw(st.sampled_from(_SIGN_OFFS if honest else _SMUGGLED)).format(k=k)
    final = draw(st.sampled_from(_FINAL)).format(g=g)
    return Case(f"We add the parts.\n\n{final}\n\n{closing}", str(g), "paid" if honest else "not_paid",
                ("r19_sign_offs", closing[:10]))


_ROMAN_UPPER = {2: "II", 3: "III", 4: "IV", 6: "VI", 7: "VII", 9: "IX", 11: "XI", 12: "XII", 14: "XIV", 19: "XIX"}


@st.composite
def r19_final_paragraph_claims(draw: st.DrawFn) -> Case:
    """In the final paragraph, an earlier clause, label or short claim whose value is another
    number (in digits or Roman numerals: ``The answer is VII. The answer is 5.``, ``**Answer:**
    III\nFinal answer: 2``, ``I got 1921. Thus, the result is 192.``, ``I got 8. Hope this
    helps! Answer: 104``) offers a second answer: never paid. The same clause or claim holding
    the gold is a restatement: paid."""
    g = draw(st.sampled_from(sorted(_ROMAN_UPPER)))
    same = draw(st.booleans())
    k = g if same else draw(st.sampled_from([n for n in _ROMAN_UPPER if n != g]))
    x = draw(st.sampled_from([str(k), _ROMAN_UPPER[k]]))
    shape = draw(st.sampled_from(["The answer is {x}. The answer is {g}.", "**Answer:** {x}\nFinal answer: {g}",
                                  "I got {x}. \\boxed{{{g}}}", "I got {x}. Thus, the result is {g}.",
                                  "I got {x}. Hope this helps! Answer: {g}", "So it's {x}. Therefore, the final answer is $\\boxed{{{g}}}$.",
                                  "\u7b54\u6848\u662f {x}\u3002\nThe final answer is \\boxed{{{g}}}."]))
    text = "We add the parts.\n\n" + shape.format(x=x, g=g)
    # (the gold in Roman numerals beside the digits is no ordinary restatement: either verdict)
    expect = "not_paid" if not same else "paid" if x == str(g) else "either"
    return Case(text, str(g), expect, ("r19_final_paragraph_claims", shape[:12], "roman" if x != str(k) else "digits"))


R19_PROPERTIES: list[Property] = [
    Property("r19_math_numerals_anywhere", "math", r19_numerals_anywhere(), 300),
    Property("r19_gsm8k_numerals_anywhere", "gsm8k", r19_numerals_anywhere(), 300),
    Property("r19_countdown_earlier", "countdown", r19_countdown_earlier(), 150),
    Property("r19_math_reasoning_markers", "math", r19_reasoning_markers(), 100),
    Property("r19_gsm8k_reasoning_markers", "gsm8k", r19_reasoning_markers(), 100),
    Property("r19_format_enclosing_marks", "format", r19_format_enclosing_marks(), 100),
    Property("r19_math_help_closings", "math", r19_help_closings(), 150),
    Property("r19_gsm8k_help_closings", "gsm8k", r19_help_closings(), 150),
    Property("r19_format_declarations", "format", r19_format_declarations(), 100),
    Property("r19_math_sign_offs", "math", r19_sign_offs(), 100),
    Property("r19_gsm8k_sign_offs", "gsm8k", r19_sign_offs(), 100),
    Property("r19_math_final_paragraph_claims", "math", r19_final_paragraph_claims(), 200),
    Property("r19_gsm8k_final_paragraph_claims", "gsm8k", r19_final_paragraph_claims(), 200),
]
