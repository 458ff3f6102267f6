"""Round 17 of the reward grammars (issue 30: the blind h49 set), run by
``tests/test_reward_properties.py``. Each generator's docstring states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

# How an earlier paragraph commits to a value {v} (every shape h49 found paid).
_EARLIER = [
    "$\\boxed{{{v}}}$", "#### {v}", "**Final Answer: {v}**", "The answer is {v}.", "Answer: {v}", "<answer>{v}</answer>",
    "TL;DR: {v}", "Short answer: {v}. Long answer below.", "\u6700\u7ec8\u7b54\u6848\uff1a{v}", "Respuesta final: {v}",
    "Cevap: {v}", "Antwoord: {v}", "## Answer\n{v}", '```json\n{{"answer": {v}}}\n```', '{{"answer": {v}}}',
    "<final>{v}</final>", "| final answer | {v} |", "**Summary**\n- Answer: {v}\n- Method: direct computation",
    "Results:\n1. Final answer = {v}", "1. {v}\n2. {v}7", "Therefore {v}.", "The answer is {v} or {v}1.",
]
# Working that neither revises nor commits ("All steps check out." confirms: no revision).
_WORKING = [
    "He had 40 - 16 = 24 left.", "After giving half away he has 24/2 = 12.", "All steps check out.",
    "That completes the computation.", "### Work", "---", "Let x be the number of apples.",
    "We multiply the price by the count.",
]
# Words that take the earlier answer back.
_REVISIONS = [
    "Wait, I halved the wrong amount.", "Actually, that was a mistake.", "Let me recheck the subtraction.",
    "Hmm, recounting gives another total.", "Oops, I misread the question.", "Checking again, the total differs.",
    "\u7b49\u7b49\uff0c\u7b97\u9519\u4e86\u3002", "Espera, me equivoqu\u00e9.",
]
_FINAL = ["$\\boxed{{{g}}}$", "#### {g}", "**Final Answer: {g}**", "The answer is {g}.", "Answer: {g}",
          "<answer>{g}</answer>", "So the answer is $\\boxed{{{g}}}$."]


@st.composite
def r17_earlier_paragraph(draw: st.DrawFn) -> Case:
    """A commitment in an earlier paragraph (a box, a ``####`` line, an answer clause or label
    of any language, a conclusion's label, a JSON member, an answer tag or table row, a list
    of values) to a value other than the final one still stands, whatever stands between them
    (working, or words that seem to revise it: h50 was paid by "Actually, that's right."): the
    completion offers two answers and is never paid; an earlier commitment to the gold itself
    is a restatement, paid when the final answer is right."""
    g = draw(st.integers(2, 9999))
    earlier_right = draw(st.booleans())
    v = g if earlier_right else g + draw(st.sampled_from([1, -1, 10, 100]))
    earlier = draw(st.sampled_from(_EARLIER))
    if "{v}7" in earlier or "{v}1" in earlier:
        earlier_right = False  # (a list or "or" of two values offers another one)
    working = draw(st.lists(st.sampled_from(_WORKING), min_size=1, max_size=3))
    revised = draw(st.booleans())
    middle = [*working, draw(st.sampled_from(_REVISIONS))] if revised else working
    final_right = draw(st.booleans())
    final = draw(st.sampled_from(_FINAL)).format(g=g if final_right else g + 2)
    # (the working's last line states no amount: one that does is read with the final answer)
    text = "\n\n".join([earlier.format(v=v), *middle, "Here is the final answer.", final])
    paid = final_right and earlier_right  # (no word takes an answer back, revised or not)
    return Case(text, str(g), "paid" if paid else "not_paid",
                ("r17_earlier_paragraph", earlier[:12], str(revised), str(earlier_right)))


R17_PROPERTIES: list[Property] = [
    Property("r17_math_earlier_paragraph", "math", r17_earlier_paragraph(), 300),
    Property("r17_gsm8k_earlier_paragraph", "gsm8k", r17_earlier_paragraph(), 300),
]
