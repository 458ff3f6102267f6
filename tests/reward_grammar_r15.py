"""Round 15 of the reward grammars (issue 30: the blind h44 set on round 14's tree), run by
``tests/test_reward_properties.py``. Each generator's docstring states its invariant."""

from __future__ import annotations

from hypothesis import strategies as st
from reward_grammar import Case, Property

_WRAPS = ["\\boxed{{{g}}}", "$\\boxed{{{g}}}$", "\\(\\boxed{{{g}}}\\)", "$$\\boxed{{{g}}}$$"]


@st.composite
def r15_uncommitted_lead(draw: st.DrawFn) -> Case:
    """A value given with an indefinite subject (``A lower bound is``, ``One candidate is``,
    ``A student answered``, ``Eine obere Schranke ist``, ``Một cận trên là``), as an example
    (``e.g.``, ``for example,``), under a label of a mistake or a bound (``Common mistake:``,
    ``Upper bound:``), after a mark of rejection (``✗``, ``❌``) or after a doubting clause in
    any math wrapper (``I think the answer is \\(\\boxed{5}\\)``) is not committed: never paid.
    A definite subject (``The total is``, ``So the answer is``) or ``A total of`` is paid."""
    g = draw(st.integers(2, 9999))
    paid = draw(st.booleans())
    if paid:
        lead = draw(st.sampled_from(["The total is ", "So the answer is ", "Her age is ", "Therefore, the final answer is ",
                                     "Thus ", "A total of ", "Final answer: ", "Total: "]))
    else:
        lead = draw(st.sampled_from([
            "A lower bound is ", "An upper bound is ", "One candidate is ", "A student answered ", "An example would be ",
            "A mistake would be ", "Eine obere Schranke ist ", "Una cota inferior es ", "M\u1ed9t c\u1eadn tr\u00ean l\u00e0 ",
            "e.g. ", "Try, for example, ", "Common mistake: ", "Upper bound: ", "Candidate: ", "\u2717 ", "\u274c ",
            "I think the answer is ", "One possible answer is ", "The first candidate is ", "My friend suggested ",
            "Say, ", "p. ej. ", "The best estimate is "]))
    wrap = draw(st.sampled_from(_WRAPS)).format(g=g)
    return Case(f"{lead}{wrap}.", str(g), "paid" if paid else "not_paid", ("r15_uncommitted_lead", lead.strip()))


@st.composite
def r15_failure_after(draw: st.DrawFn) -> Case:
    """A value said to fail in its own sentence (``leads to a contradiction``, ``overshoots``,
    ``fails the check``, ``can be excluded``, ``violates the condition``) is never paid; one
    said to work (``satisfies the equation``, ``works``) is paid."""
    g = draw(st.integers(2, 9999))
    paid = draw(st.booleans())
    tail = draw(st.sampled_from(["satisfies the equation", "works", "checks out", "is the answer",
                                 ", which satisfies the equation"] if paid else
                                ["leads to a contradiction", "overshoots", "fails the check", "can be excluded",
                                 "violates the condition", "contradicts the data", "gets rejected", "is ruled out",
                                 "is too big", "undershoots the target", "breaks the constraint",
                                 ", which is extraneous", "that fails", ", which we reject", "; this is impossible",
                                 ", which exceeds the limit", ", so it is ruled out"]))
    wrap = draw(st.sampled_from(_WRAPS)).format(g=g)
    return Case(f"{wrap}{'' if tail[0] in ',;' else ' '}{tail}.", str(g), "paid" if paid else "not_paid", ("r15_failure_after", tail))


@st.composite
def r15_collective_count(draw: st.DrawFn) -> Case:
    """For a gold that counts items (``248 eggs``), a collective or container noun before them
    (``248 dozen eggs``, ``101 crates of apples``, ``338 groups of people``) counts something
    else: never paid. The items themselves, or a collective said earlier in the reasoning, are
    paid."""
    g = draw(st.integers(2, 999))
    noun = draw(st.sampled_from(["eggs", "apples", "people", "marbles", "students"]))
    kind = draw(st.sampled_from(["collective", "items", "earlier"]))
    if kind == "collective":
        group = draw(st.sampled_from(["dozen", "crates of", "groups of", "boxes of", "bags of", "pairs of",
                                      "busloads of", "families of"]))
        text = draw(st.sampled_from(["#### {g} {c} {n}", "The answer is $\\boxed{{{g}}}$ {c} {n}.",
                                     "So we need \\(\\boxed{{{g}}}\\) {c} {n} in total."])).format(g=g, c=group, n=noun)
    elif kind == "items":
        text = draw(st.sampled_from(["#### {g} {n}", "The answer is $\\boxed{{{g}}}$ {n}."])).format(g=g, n=noun)
    else:
        text = f"She bought 3 dozen {noun} and more, so the total is $\\boxed{{{g}}}$ {noun}."
    return Case(text, f"{g} {noun}", "not_paid" if kind == "collective" else "paid", ("r15_collective_count", kind))


@st.composite
def r15_struck_by_overlay(draw: st.DrawFn) -> Case:
    """An answer whose every character, or every digit, is struck by a combining overlay
    (``5\u03363\u0336``, ``The answer is 8\u03367\u0336``) shows no value: never paid by
    ``format_check``. Unstruck text is paid."""
    value = str(draw(st.integers(2, 9999)))
    mark = draw(st.sampled_from(["\u0335", "\u0336", "\u0337", "\u0338", "\u20e5"]))
    kind = draw(st.sampled_from(["all", "digits", "none"]))
    struck = "".join(c + mark for c in value)
    body = {"all": struck, "digits": f"The answer is {struck}", "none": f"The answer is {value}"}[kind]
    return Case(f"<think>Compute it.</think><answer>{body}</answer>", "", "paid" if kind == "none" else "not_paid",
                ("r15_struck_by_overlay", kind))


@st.composite
def r15_said_revision(draw: st.DrawFn) -> Case:
    """A later paragraph that corrects the earlier one in a script whose stops take no space
    (``等等，算错了。正确答案是 \\boxed{57}``) or with a danda (``रुको, गलती हुई। सही उत्तर है``)
    leaves two answers (round 17), never paid; inside a closed reasoning block it is the
    working, and the answer after the block is paid when right."""
    a = draw(st.integers(2, 999))
    b = a + draw(st.integers(1, 9))
    revision = draw(st.sampled_from(["\u7b49\u7b49\uff0c\u7b97\u9519\u4e86\u3002\u6b63\u786e\u7b54\u6848\u662f {v}\u3002",
                                     "\u0930\u0941\u0915\u094b, \u0917\u0932\u0924\u0940 \u0939\u0941\u0908\u0964 "
                                     "\u0938\u0939\u0940 \u0909\u0924\u094d\u0924\u0930 \u0939\u0948 {v}\u0964"]))
    right = draw(st.booleans())
    text = f"So the answer is $\\boxed{{{a}}}$.\n\n" + revision.format(v=f"\\(\\boxed{{{b}}}\\)")
    # (round 17: the earlier paragraph's answer stands whatever follows it; inside a reasoning
    # block the revision is the working, and the answer after it is paid)
    think = draw(st.booleans())
    if think:
        text = f"<think>{text}</think>\n\n\\boxed{{{b}}}"
    return Case(text, str(b if right else a), "paid" if right and think else "not_paid",
                ("r15_said_revision", str(right), str(think)))


@st.composite
def r15_option_word(draw: st.DrawFn) -> Case:
    """``The answer is option A.`` commits to the choice A: paid for a gold A, never for
    another letter."""
    letter = draw(st.sampled_from("ABCDE"))
    right = draw(st.booleans())
    gold = letter if right else chr(ord(letter) + 1)
    text = draw(st.sampled_from(["The answer is option {l}.", "\\boxed{{option {l}}}", "So the answer is option {l}."]))
    return Case(text.format(l=letter), gold, "paid" if right else "not_paid", ("r15_option_word", str(right)))


R15_PROPERTIES: list[Property] = [
    Property("r15_math_uncommitted_lead", "math", r15_uncommitted_lead(), 200),
    Property("r15_math_failure_after", "math", r15_failure_after(), 150),
    Property("r15_math_collective_count", "math", r15_collective_count(), 150),
    Property("r15_format_struck_by_overlay", "format", r15_struck_by_overlay(), 100),
    Property("r15_math_said_revision", "math", r15_said_revision(), 100),
    Property("r15_math_option_word", "math", r15_option_word(), 100),
]
