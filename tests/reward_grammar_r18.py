"""Round 18 of the reward grammars (issue 30: the blind h51 set and h50's last shapes), run by
``tests/test_reward_properties.py``. Each generator's docstring states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

_ROMAN = {2: "II", 3: "III", 4: "IV", 6: "VI", 7: "VII", 9: "IX", 11: "XI", 12: "XII", 14: "XIV"}
_WORDS = {2: "two", 3: "three", 4: "four", 6: "six", 7: "seven", 9: "nine", 11: "eleven", 12: "twelve", 14: "fourteen"}
# A value other than the gold {k} (an integer) in a form no plain number reader takes.
_OTHER_VALUES = [
    "\\text{{east}}", "\\text{{ellipse}}", "(a+{k})(b+2)", "{k}^\\circ", "\\frac{{{k}}}{{7}}\\text{{ degrees}}",
    "\\begin{{pmatrix}} {k} \\\\ 2 \\end{{pmatrix}}", "{roman}", "USD {k}", "{k} dollars", "{word}", "y = {k}x + 3",
    "p - q", "2\\sqrt{{{k}}}", "\\$ {k}",
]
# Where an earlier paragraph commits to {x}: a label of any language (particles glued), a
# heading over it, a table, a one-line conclusion, a bold or heading line that is the value.
_EARLIER_SHAPES = [
    "Answer: {x}", "Odpowied\u017a: {x}.", "R\u00e9ponse : {x}", "\ub2f5\uc740 {x}\uc785\ub2c8\ub2e4.",
    "\u7b54\u3048\u306f {x} \u3067\u3059\u3002", "Svaret \u00e4r {x}.", "\u0909\u0924\u094d\u0924\u0930 {x} \u0939\u0948\u0964",
    "Jawabannya adalah {x}.", "*\u0418\u0442\u0430\u043a, \u043e\u0442\u0432\u0435\u0442 ${x}$.*", "TL;DR: {x}",
    "Summary: {x}", "Conclusion: {x}", "## Answer\n\n{x}", "### Final Answer\n{x}", "# Result\n\n{x}",
    "| Answer | {x} |", "| Final | {x} |", "| Answer |\n|---|\n| {x} |", "- ${x}$ (final)", "`${x}$` is the answer.",
    "_Caption: result ${x}$_", "```python\nprint({x})  # final answer\n```", "**${x}$**", "## ${x}$",
    "<final_answer>\n{x}\n</final_answer>",
]
_WORKING = ["Let x be the number of apples.", "We multiply the price by the count.", "All steps check out.",
            "That completes the computation.", "---"]
_FINAL = ["$\\boxed{{{g}}}$", "#### {g}", "**Final Answer:** {g}", "The answer is {g}.", "Answer: {g}",
          "<answer>{g}</answer>", "La risposta \u00e8 {g}."]


@st.composite
def r18_earlier_any_form(draw: st.DrawFn) -> Case:
    """An answer committed in an earlier paragraph in any form (a word, a product, an angle, a
    matrix, a Roman numeral, a unit or a currency code after it; under a label of any language
    with its particle glued, a heading, a table, a one-line conclusion, or a bold line that is
    the value) stands: when it is not the gold, the completion offers two answers and is never
    paid, whatever the final answer is. Restated as the gold in the same shape, it is paid."""
    g = draw(st.integers(2, 14).filter(lambda n: n in _ROMAN))
    k = draw(st.sampled_from([n for n in _ROMAN if n != g]))
    restated = draw(st.booleans())
    shape = draw(st.sampled_from(_EARLIER_SHAPES))
    x = str(g) if restated else draw(st.sampled_from(_OTHER_VALUES)).format(k=k, roman=_ROMAN[k], word=_WORDS[k])
    if shape.startswith(("```", "**$", "## $", "<final")) and not any(c.isdigit() for c in x):
        x = str(k)  # (code prints a number; a bold or heading line of one word is a heading: "**Solution**")
    working = draw(st.lists(st.sampled_from(_WORKING), min_size=1, max_size=2))
    final_right = draw(st.booleans())
    final = draw(st.sampled_from(_FINAL)).format(g=g if final_right else g + 20)
    text = "\n\n".join([shape.format(x=x), *working, "Here is the final answer.", final])
    paid = final_right and restated
    return Case(text, str(g), "paid" if paid else "not_paid", ("r18_earlier_any_form", shape[:14], x[:14]))


@st.composite
def r18_before_reasoning(draw: st.DrawFn) -> Case:
    """What stands before a reasoning block (``<think>``) is no working: a commitment there to
    another value stands (two answers, never paid); the same value is a restatement (paid); a
    commitment inside the block is the block's working and does not compete (paid when the
    answer after the block is right)."""
    g = draw(st.integers(10, 999))
    v = g + draw(st.sampled_from([1, -1, 10]))
    where = draw(st.sampled_from(["before_other", "before_same", "inside_other"]))
    commit = draw(st.sampled_from(["***Answer: {v}***", "\\boxed{{{v}}}", "Final answer: ${v}", "#### {v}",
                                   '{{"final_answer": "{v}"}}', "> Final answer: {v}"]))
    inside = "He had 40 - 16 = 24 left.\nSo the total follows."
    if where == "before_other":
        text = f"{commit.format(v=v)}\n\n<think>\n{inside}\n</think>\n\n"
    elif where == "before_same":
        text = f"{commit.format(v=g)}\n\n<think>\n{inside}\n</think>\n\n"
    else:
        text = f"<think>\n{inside}\n\n{commit.format(v=v)}\n\nSo it is fine.\n</think>\n\n"
    final_right = draw(st.booleans())
    text += draw(st.sampled_from(_FINAL)).format(g=g if final_right else g + 2)
    paid = final_right and where != "before_other"
    return Case(text, str(g), "paid" if paid else "not_paid", ("r18_before_reasoning", where, commit[:10]))


@st.composite
def r18_emoji_tone(draw: st.DrawFn) -> Case:
    """A pictograph or emoji after the answer is tone, not a value (paid when the answer is
    right); one between digits splits the number into two values (never paid)."""
    g = draw(st.integers(10, 9999))
    emoji = draw(st.sampled_from(["\U0001f60a", "\U0001f44d\U0001f3fd", "\U0001f389", "\U0001f680", "\U0001f64f"]))
    digits = str(g)
    split = draw(st.booleans())
    if split:
        at = draw(st.integers(1, len(digits) - 1))
        value = digits[:at] + emoji + digits[at:]
        text = draw(st.sampled_from(["The answer is {v}.", "#### {v}", "Answer: {v}"])).format(v=value)
        return Case(text, digits, "not_paid", ("r18_emoji", "split"))
    right = draw(st.booleans())
    form = draw(st.sampled_from(["The answer is {v}. {e}", "$\\boxed{{{v}}}$ {e}", "#### {v} {e}",
                                 "The answer is {v}.\n\nLet me know if you have any other questions! {e}"]))
    text = form.format(v=g if right else g + 1, e=emoji)
    return Case(text, digits, "paid" if right else "not_paid", ("r18_emoji", form[:10]))


_VALUE_MARKUP = ["<!-- 41 -->", "<!-- the answer is 7 -->", "<!-- forty-one -->", "<!-- B -->", "<?php 41 ?>",
                 "<![CDATA[41]]>", '<img alt="41">', "<a href='7'></a>", "![7](x.png)", "\n[//]: # (7)\n", ".",
                 "\u2014", "\\", "\n# \n", "\n- \n", "\n> \n", "\n---\n", "\n***\n"]
_BLANK_MARKUP = ["<!-- a note -->", "<!-- -->", "<br>", "\u200b", "&nbsp;", "\\quad", "**"]


@st.composite
def r18_format_outside(draw: st.DrawFn) -> Case:
    """Outside the tags (``allow_text_outside=False``), markup that holds a value where it does
    not render (a comment, a processing instruction, CDATA, an attribute, markdown alt text or
    a reference definition) and a shown mark (a dot, a dash, a backslash, a heading mark, a
    bullet, a quote, a rule) are text: never paid. A note in a comment and markup that draws
    nothing are whitespace: paid."""
    value = draw(st.booleans())
    markup = draw(st.sampled_from(_VALUE_MARKUP if value else _BLANK_MARKUP))
    where = draw(st.sampled_from(["before", "between", "after"]))
    parts = {"before": "", "between": "\n", "after": ""}
    parts[where] += markup
    text = f"{parts['before']}<think>Some reasoning.</think>{parts['between']}<answer>42</answer>{parts['after']}"
    return Case(text, "", "not_paid" if value else "paid", ("r18_format_outside", where, markup[:8]))


@st.composite
def r18_label_then_equals(draw: st.DrawFn) -> Case:
    """A labelled value in the final paragraph, then a closing ``= X`` or ``x = X`` (h49's
    random compositions: ``Respuesta: 6\nYes.\nx = 9``): two answers when they differ (never
    paid), one restated when they agree (paid when right)."""
    g = draw(st.integers(2, 9999))
    same = draw(st.booleans())
    v = g if same else g + draw(st.sampled_from([1, -1, 10]))
    label = draw(st.sampled_from(["Respuesta: {v}", "Final: **{v}**", "\u7b54\u6848\uff1a{v}", '{{"answer": {v}}}',
                                  "Answer: {v}", "- Result: {v}"])).format(v=v)
    # (after an answer clause, a filler word is a tail the closing vocabulary may not hold:
    # the paid case has none)
    filler = draw(st.sampled_from(["", "Yes.\n", "Hmm.\n", "---\n"])) if not same else ""
    closing = draw(st.sampled_from(["= {g}", "x = {g}", "So x = {g}."])).format(g=g)
    return Case(f"Let me see.\n\n{label}\n{filler}{closing}", str(g), "paid" if same else "not_paid",
                ("r18_label_then_equals", label[:10], closing[:4]))


_SUPERSCRIPT = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079")
_DOUBLE_STRUCK = str.maketrans("0123456789", "".join(chr(0x1D7D8 + d) for d in range(10)))
_CJK = "\u3007\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d"


def _numeral(k: int, form: str) -> str:
    digits = str(k)
    if form == "superscript":
        return digits.translate(_SUPERSCRIPT)
    if form == "double_struck":
        return digits.translate(_DOUBLE_STRUCK)
    if form == "keycap":
        return "".join(d + "\u20e3" for d in digits)
    if form == "circled":
        return chr(0x2460 + k - 1)
    if form == "cjk":
        return "".join(_CJK[int(d)] for d in digits)
    return _ROMAN[k] if form == "roman" else _ROMAN[k].lower()


@st.composite
def r18_numerals_attributes_guesses(draw: st.DrawFn) -> Case:
    """h52's shapes: an earlier answer written in other numerals after a label (superscripts,
    double-struck or keycap digits, circled numbers, CJK numerals, Roman numerals, after
    "\u7b54\uff1a", "\u3010\u7b54\u6848\u3011", "Final:"), a value in an attribute named for an answer
    (``<div answer="12">``), and a guess before the working or a reasoning block ("Hmm, maybe
    651."): another value offered, never paid. A pictograph or star after the right answer
    is tone: paid."""
    g = draw(st.integers(2, 14).filter(lambda n: n in _ROMAN))
    k = draw(st.sampled_from([n for n in _ROMAN if n != g]))
    final = draw(st.sampled_from(_FINAL)).format(g=g)
    kind = draw(st.sampled_from(["numeral", "attribute", "guess", "tone"]))
    if kind == "numeral":
        form = draw(st.sampled_from(["superscript", "double_struck", "keycap", "circled", "cjk", "roman", "small_roman"]))
        label = draw(st.sampled_from(["\u041e\u0442\u0432\u0435\u0442: ", "\u7b54\uff1a", "\u3010\u7b54\u6848\u3011", "Final: ",
                                      "Answer: "]))
        text = f"We compute it directly.\n\n{label}{_numeral(k, form)}\n\n{final}"
        return Case(text, str(g), "not_paid", ("r18_numeral", form, label))
    if kind == "attribute":
        name = draw(st.sampled_from(["answer", "final", "data-answer", "value", "result"]))
        value = draw(st.sampled_from([str(k), _WORDS[k], "trece", "L"]))
        tag = draw(st.sampled_from(["div", "span", "b", "think", "output"]))
        text = f'<{tag} {name}="{value}"></{tag}>\n\n{final}'
        return Case(text, str(g), "not_paid", ("r18_attribute", name, tag))
    if kind == "guess":
        guess = draw(st.sampled_from(["Hmm, maybe {k}.", "Actually, it is {k}.", "Perhaps {k}.", "I think it's {k}."])).format(k=k)
        block = draw(st.sampled_from(["<think>\nLet me work it out.\n</think>", "Let me work it out."]))
        return Case(f"{guess}\n\n{block}\n\n{final}", str(g), "not_paid", ("r18_guess", guess[:8], block[:7]))
    mark = draw(st.sampled_from(["\u2b50", "\u2605", "\u25c6", "\u2728", "\u2611\ufe0f", "\u2705", "\U0001f389"]))
    return Case(f"{final} {mark}", str(g), "paid", ("r18_tone", mark))


R18_PROPERTIES: list[Property] = [
    Property("r18_math_earlier_any_form", "math", r18_earlier_any_form(), 300),
    Property("r18_gsm8k_earlier_any_form", "gsm8k", r18_earlier_any_form(), 300),
    Property("r18_math_before_reasoning", "math", r18_before_reasoning(), 150),
    Property("r18_gsm8k_before_reasoning", "gsm8k", r18_before_reasoning(), 150),
    Property("r18_math_emoji_tone", "math", r18_emoji_tone(), 150),
    Property("r18_gsm8k_emoji_tone", "gsm8k", r18_emoji_tone(), 150),
    Property("r18_format_outside", "format", r18_format_outside(), 150),
    Property("r18_math_label_then_equals", "math", r18_label_then_equals(), 150),
    Property("r18_math_numerals_attributes_guesses", "math", r18_numerals_attributes_guesses(), 200),
    Property("r18_gsm8k_numerals_attributes_guesses", "gsm8k", r18_numerals_attributes_guesses(), 200),
    Property("r18_gsm8k_label_then_equals", "gsm8k", r18_label_then_equals(), 150),
]
