"""verifiers.format: every rule fails with its own reason, answers come out of tags."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifiers.format import _is_blank, extract_tag, format_check, format_reward

R1 = "<think>\nLet me add 2 and 2.\n</think>\n<answer>\n4\n</answer>\n"


def rule(verdict) -> str:
    return verdict.details["rule"]


def test_r1_format_passes_and_yields_the_answer():
    v = format_check(R1)
    assert (v.reward, v.reason, v.pred) == (1.0, "correct", "4")
    assert v.correct
    assert format_reward(R1) == 1.0
    assert isinstance(format_reward(R1), float)


def test_answer_argument_is_ignored():
    assert format_reward(R1, "5") == format_reward(R1, None) == 1.0


@pytest.mark.parametrize(
    ("text", "expected_rule", "tag"),
    [
        ("<answer>4</answer>", "missing_tag", "think"),
        ("<think>a</think>", "missing_tag", "answer"),
        ("<think>a</think><think>b</think><answer>4</answer>", "duplicate_tag", "think"),
        (
            "<think>I will write <answer> at the end</think><answer>4</answer>",
            "duplicate_tag",
            "answer",
        ),
        ("<think>a</think><answer>4", "unclosed_tag", "answer"),
        ("<think>a</think></answer>4", "unclosed_tag", "answer"),
        ("<think>a</think></answer>4<answer>", "unclosed_tag", "answer"),
        ("<answer>4</answer><think>a</think>", "tag_order", "answer"),
        ("<think>a<answer>4</answer></think>", "nested_tag", "answer"),
        ("<think>a<answer>4</think></answer>", "nested_tag", "answer"),
        ("<think> \n </think><answer>4</answer>", "empty_tag", "think"),
        ("<think>a</think><answer>  </answer>", "empty_tag", "answer"),
        ("<Think>a</Think><answer>4</answer>", "missing_tag", "think"),
        ('<think id="1">a</think><answer>4</answer>', "unclosed_tag", "think"),
    ],
)
def test_each_tag_rule_names_itself(text, expected_rule, tag):
    v = format_check(text)
    assert v.reward == 0.0
    assert rule(v) == expected_rule
    assert v.details["tag"] == tag
    assert v.reason.startswith(expected_rule + ": ") and f"<{tag}>" in v.reason


@pytest.mark.parametrize(
    "text",
    [
        "Sure! <think>a</think><answer>4</answer>",
        "<think>a</think> so <answer>4</answer>",
        "<think>a</think><answer>4</answer> Hope this helps.",
    ],
)
def test_text_outside_tags_fails_unless_allowed(text):
    v = format_check(text)
    assert (v.reward, rule(v)) == (0.0, "text_outside_tags")
    assert format_check(text, allow_text_outside=True).reward == 1.0


def test_custom_tags_single_tag_and_no_tags():
    text = "<reasoning>x</reasoning><final>7</final>"
    assert format_check(text, tags=["reasoning", "final"]).pred == "7"
    assert format_reward("<final>7</final>", tags="final") == 1.0  # a str is one tag
    assert format_reward("anything at all", tags=()) == 1.0
    assert format_reward("anything at all", tags=None) == 1.0
    assert format_reward("anything at all") == 0.0


def test_pattern_is_searched_and_compiled_flags_are_kept():
    assert format_reward("so #### 42", tags=(), pattern=r"#### -?\d+") == 1.0
    v = format_check("so #### x", tags=(), pattern=r"#### -?\d+")
    assert (v.reward, rule(v)) == (0.0, "pattern_mismatch")
    assert r"#### -?\d+" in v.reason
    assert format_reward("ANSWER: 4", tags=(), pattern=re.compile("answer", re.I)) == 1.0
    assert format_reward("ANSWER: 4", tags=(), pattern="answer") == 0.0
    # Tags and pattern together: both must hold.
    assert format_reward(R1, pattern=r"<answer>\s*\d+\s*</answer>") == 1.0
    assert format_reward(R1, pattern=r"<answer>\s*[a-z]+\s*</answer>") == 0.0


def test_length_limits():
    v = format_check(R1, max_chars=10)
    assert (v.reward, rule(v)) == (0.0, "too_long")
    assert f"{len(R1)} chars > max_chars=10" in v.reason
    assert format_reward(R1, max_chars=len(R1)) == 1.0
    v = format_check("ab", tags=(), min_chars=3)
    assert (v.reward, rule(v)) == (0.0, "too_short")
    assert format_reward("abc", tags=(), min_chars=3) == 1.0


@pytest.mark.parametrize("completion", [None, b"<think>a</think><answer>4</answer>", 42, ["x"]])
def test_non_string_completion_scores_zero_with_reason(completion):
    v = format_check(completion)
    assert (v.reward, rule(v)) == (0.0, "not_a_string")


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"tags": ["<answer>"]}, ValueError, "tags"),
        ({"tags": [""]}, ValueError, "tags"),
        ({"tags": 3}, TypeError, "tags"),
        ({"tags": ["a", "a"]}, ValueError, "tags"),
        ({"max_chars": -1}, ValueError, "max_chars"),
        ({"max_chars": True}, ValueError, "max_chars"),
        ({"min_chars": 1.5}, ValueError, "min_chars"),
        ({"pattern": 3}, TypeError, "pattern"),
    ],
)
def test_bad_arguments_raise_naming_the_argument(kwargs, error, argument):
    with pytest.raises(error, match=argument):
        format_check(R1, **kwargs)


def test_extract_tag_takes_the_last_complete_tag():
    text = "<answer>3</answer> wait, no: <answer> 4 </answer>"
    assert extract_tag(text, "answer") == "4"
    assert extract_tag("<answer>4", "answer") is None
    assert extract_tag("</answer>4<answer>", "answer") is None
    assert extract_tag("no tags", "answer") is None
    assert extract_tag("<answer>3</answer><answer>4", "answer") == "3"
    assert extract_tag(R1, "think") == "Let me add 2 and 2."


def test_extract_tag_rejects_bad_arguments():
    with pytest.raises(TypeError, match="text"):
        extract_tag(None, "answer")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tag"):
        extract_tag("x", "<answer>")


def test_long_completion_is_checked():
    text = "<think>" + "x" * 50_000 + "</think><answer>1</answer>"
    assert format_reward(text) == 1.0
    assert format_check(text, max_chars=50_000).details["rule"] == "too_long"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/thinkanswer x\n")), max_size=80))
def test_arbitrary_text_never_raises(text):
    v = format_check(text)
    assert v.reward in (0.0, 1.0)
    if v.reward == 1.0:
        assert v.pred == extract_tag(text, "answer") and v.pred
    else:
        assert v.reason.startswith(v.details["rule"])
    got = extract_tag(text, "answer")
    assert got is None or isinstance(got, str)


@settings(max_examples=100, deadline=None)
@given(
    st.text(max_size=20).filter(lambda s: "<" not in s),
    st.text(min_size=1, max_size=20).filter(lambda s: "<" not in s and not _is_blank(s)),
)
def test_well_formed_text_always_passes(think, answer):
    text = f"<think>{think}x</think>\n<answer>{answer}</answer>"
    v = format_check(text)
    assert v.reward == 1.0, v.reason
    assert v.pred == answer.strip()


@pytest.mark.parametrize("completion", [None, b"#### 4", 4, ["#### 4"]])
def test_every_family_scores_a_non_string_completion_zero_with_the_reason(completion):
    from verifiers.code import code_check
    from verifiers.countdown import countdown_check
    from verifiers.gsm8k import gsm8k_check
    from verifiers.math import math_check, math_reward

    expected = f"not_a_string: completion is a {type(completion).__name__}, not a str"
    verdicts = {
        "format": format_check(completion),
        "gsm8k": gsm8k_check(completion, "#### 4"),
        "math": math_check(completion, "4"),
        "countdown": countdown_check(completion, "4", numbers=[2, 2]),
        "code": code_check(completion, [{"entry_point": "f", "args": [], "expected": 4}]),
    }
    for family, v in verdicts.items():
        assert (v.reward, v.reason, v.pred) == (0.0, expected, None), family
        assert v.details["rule"] == "not_a_string", family
    assert verdicts["gsm8k"].gold == "4" and verdicts["math"].gold == "4"
    assert math_reward(completion, "4") == 0.0


INVISIBLE = [
    # default-ignorable and combining-only content, told by category (issue 22)
    "\u034f",
    "\ufe0f",
    "\u180b",
    "\u0301\u0301",
    "\U000e0041",
    "\u2800",
    "\uffa0",
    "&nbsp;",
    "&#8203;&zwj;",
    "<!-- -->",
    "<!-- the answer is 4 -->",
    "<br>",
    "&nbsp;<!-- x -->\u200b",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u00ad",
    "\u3164",
    "\u200b \n\ufeff",
]


@pytest.mark.parametrize("blank", INVISIBLE, ids=lambda c: ascii(c))
def test_invisible_characters_are_not_content(blank):
    v = format_check(f"<think>{blank}</think><answer>{blank}</answer>")
    assert (v.reward, rule(v), v.details["tag"]) == (0.0, "empty_tag", "think")
    v = format_check(f"<think>ok</think><answer>{blank}</answer>")
    assert (v.reward, rule(v), v.details["tag"]) == (0.0, "empty_tag", "answer")


@pytest.mark.parametrize("blank", [b for b in INVISIBLE if "answer" not in b], ids=lambda c: ascii(c))
def test_invisible_characters_outside_the_tags_are_whitespace(blank):
    assert format_reward(f"{blank}<think>a</think>{blank}<answer>4</answer>{blank}") == 1.0


@pytest.mark.parametrize("where", ["before", "between", "after"])
@pytest.mark.parametrize("markup", [
    "<!-- 41 -->", "<!-- the answer is 4 -->", "<!-- forty-one -->", "<!-- B -->", "<!-- 41", "<?php 41 ?>",
    "<![CDATA[41]]>", '<img alt="41">', "<img title='the answer'>", "\\", ".", "\u2014",
])
def test_a_value_or_a_mark_outside_the_tags_is_text(markup, where):
    """A comment, processing instruction or text attribute holding a value is text that does
    not render ('<!-- 41 -->' hides a second answer), and a dot, a dash or a backslash is
    shown text: neither is whitespace (h50, h51). A note in a comment is."""
    parts = {"before": "", "between": "", "after": ""}
    parts[where] = markup
    text = f"{parts['before']}<think>a</think>{parts['between']}<answer>4</answer>{parts['after']}"
    assert rule(format_check(text)) in ("text_outside_tags", "hidden_tag")  # (an unclosed comment hides the tags)
    parts[where] = "<!-- a note -->"
    assert format_reward(f"{parts['before']}<think>a</think>{parts['between']}<answer>4</answer>{parts['after']}") == 1.0


def test_visible_text_next_to_invisible_characters_still_counts():
    assert format_reward("<think>\u200ba\u200b</think><answer>\u200d4</answer>") == 1.0
    assert rule(format_check("\u200bx<think>a</think><answer>4</answer>")) == "text_outside_tags"


@pytest.mark.parametrize(
    "drawn_as_nothing", ["$$", "**", "``", "\\,", "\\phantom{x}", "\\text{}", "{}", "$\\quad$"]
)
def test_markdown_and_latex_that_draw_nothing_are_empty(drawn_as_nothing):
    v = format_check(f"<think>a</think><answer>{drawn_as_nothing}</answer>")
    assert (v.reward, rule(v)) == (0.0, "empty_tag"), drawn_as_nothing


def test_latex_that_draws_something_is_content():
    for shown in ("\\alpha", "$x$", "\\text{5}", "{5}", "\\phantom{x}5", "**4**"):
        assert format_reward(f"<think>a</think><answer>{shown}</answer>") == 1.0, shown


def test_markup_that_shows_something_is_content():
    for shown in ("&amp;", "4<br>", "x < 5", "a\u0301"):
        assert format_reward(f"<think>a</think><answer>{shown}</answer>") == 1.0, shown


@pytest.mark.parametrize(
    "inside",
    [r"\strut", r"\null", r"\kern1em", r"\hfill", r"\hbox{}", r"\textcolor{white}{x}", "[](#)",
     r"\iffalse 42 \fi", r"{\color{white} 42}", "<!-- 42 -->",
     r"\hspace{2em}\vphantom{42}",
     "<!-- 42"],  # an unclosed comment hides the rest, as in the math reader
)
def test_answer_of_spacing_or_hidden_content_is_empty(inside: str) -> None:
    # issue 30, hole class 11: none of these renders anything a reader could take as an answer
    verdict = format_check(f"<think>a</think><answer>{inside}</answer>")
    # (an unclosed comment hides the closing tag too: round 10's rule names that first)
    rule = "hidden_tag" if inside.startswith("<!--") and "-->" not in inside else "empty_tag"
    assert verdict.reward == 0.0 and verdict.details["rule"] == rule, verdict


@pytest.mark.parametrize("inside", [r"\hbox{42}", r"\textcolor{red}{x}", "[a](#)", r"\mbox{yes}"])
def test_answer_of_visible_content_in_wrappers_is_not_empty(inside: str) -> None:
    assert format_check(f"<think>a</think><answer>{inside}</answer>").reward == 1.0


def test_mathstrut_is_spacing() -> None:
    # found by h3's property tests: \mathstrut draws nothing
    verdict = format_check(r"<think>a</think><answer>\mathstrut</answer>")
    assert verdict.details["rule"] == "empty_tag", verdict
