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


R16_PROPERTIES: list[Property] = [
    Property("r16_math_failure_after_count", "math", r16_failure_after_count(), 150),
    Property("r16_gsm8k_failure_after_count", "gsm8k", r16_failure_after_count(), 150),
]
