"""Property tests of the text rewards, written from the public API and the invariants only.

An RL policy searches the whole space of completions for anything that pays 1.0 without
being right, so the generators (``tests/reward_grammar.py``) compose completions from
grammars (commitment form x joiner x alternative value x hidden wrapper x position x number
format) and each property asserts, for every case it draws:

- soundness: a completion that offers a value other than the gold (two values, a hedge, a
  negation, a comparison, a value hidden in markup that does not render) is never paid 1.0;
- completeness: the gold in an ordinary, unambiguous dressing is paid 1.0.

Forms that are genuinely ambiguous (``The answer is 5, not 6.``) appear only in the
soundness direction, never as a completeness requirement. Time and crashes:
``tests/test_reward_time.py``. To see every violation grouped by class instead of the first
one per property: ``python tests/reward_census.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from hypothesis import given

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reward_grammar import PROPERTIES, Case, Property, profile, violation  # noqa: E402


def _property_test(prop: Property) -> Callable[..., None]:
    @profile(prop.examples)
    @given(case=prop.strategy)
    def test(case: Case) -> None:
        problem = violation(prop, case)
        assert problem is None, problem

    test.__name__ = test.__qualname__ = f"test_{prop.name}"
    test.__doc__ = f"{prop.verifier}: every generated case is scored as its label says."
    return test


for _prop in PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# h13: issue 30 round 2 (lead-in words, values and scale words after the answer, retractions,
# empty math in a tag): generated in ``reward_grammar.H13_PROPERTIES``.
from reward_grammar import H13_PROPERTIES  # noqa: E402

for _prop in H13_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)


# One shortest example of each class the census found after issue 30 (helper h10): each
# failed on main before the fix, and each neighbour that must still pay stays paid.
REGRESSIONS = [
    ("math", r"Answer: 0 A \mathbf{1}", "0", False),  # 0*A*1 is no 0: a free letter
    ("math", r"Answer: \mathbf{1} A 0", "0", False),
    ("math", "Answer: 0% 1.0", "0", False),  # two values side by side
    ("math", "<answer>% 0\n\\mathbf{1}</answer>", "0", False),  # two values in one tag
    ("math", "<answer>1</answer> or \u3007", "1", False),  # a numeral character in the tail
    ("gsm8k", "<answer>1706</answer> and one!", "1706", False),
    ("math", "x = 1% x = 0", "0", False),  # the closing line assigns x twice
    ("math", "So we get\n1000% So we get\n0\n", "0", False),  # a line running on into 0
    ("math", "الجواب ليس 0.", "0", False),  # "the answer is not 0" in Arabic
    ("gsm8k", "الجواب ليس 0.", "0", False),
    ("math", "उत्तर 8.5 नहीं है।", "8.5", False),
    ("math", "The answer is 4746... or is it?", "4746", False),
    ("math", "Final answer: 1000<!-- Sixteen -->", "1000", False),  # a hidden number word
    ("math", '\\fbox{1322<span style="font-size:0">\\text{1673}</span>}', "1322", False),
    ("math", r"The answer is $\boxed{\Gamma(1000001)}$.", "5", False),
    # found by the long profile (--scale 10 --seed 1)
    ("math", "#### 132\\;\\mathbf{0} .", "132", False),  # a styled second value
    ("math", "$\\boxed{776\u200b\\text{777}}$.", "776", False),
    ("math", "So we get\n4.5 A One", "4.5", False),  # "one" as a second item
    ("gsm8k", "<answer>6,694</answer> A One\nHope this helps!", "6694", False),
    ("math", "x = \\mathbf{-25}\n% x = 29/11\n", "29/11", False),  # x assigned twice
    ("gsm8k", "So the total = -3. % So the total = -20\n", "-20", False),
    ("math", "$x = 60$\n{\\color{white} $x = 6$}", "6", False),  # white group spans math
    ("gsm8k", "So we get\n12.0 = 232,131\nHope this helps!", "232131", False),
    ("gsm8k", "So we get\n{303570}? 30{,}357 .", "30357", False),
    ("gsm8k", "So we get\n2908. % So we get\n30\n", "30", False),
    # issue 30's last probe holes and helper h2's blind findings (h1): each paid on main
    ("math", "The answer is 6. \\quad \\boxed{5}", "5", False),  # a clause beside a box
    ("gsm8k", "**31**; <answer>30</answer>", "30", False),  # bold beside a tag
    ("math", "$8$ \\qquad #### 7", "7", False),  # math beside a '####' line
    ("gsm8k", "**2** then <answer>1</answer>", "1", False),  # "then" sequences, commits not
    ("gsm8k", "The answer is 301.\n#### 283", "283", False),  # an earlier clause
    ("math", "Ответ: 8\n#### 7", "7", False),  # an earlier clause in Russian
    ("gsm8k", "答案是6。 #### 3", "3", False),
    ("gsm8k", "64? #### 63", "63", False),  # a questioned value beside it
    ("gsm8k", "So the total = one and <answer>0</answer>", "0", False),  # a number word
    ("math", "$1006$ **\\boxed{34/3}**", "34/3", False),  # an opening bold is no joiner
    ("math", 'So it is 6.\n<span style="opacity:0">\\boxed{5}</span>', "5", False),
    ("math", 'So it is 6.\n<span style="color:transparent">\\boxed{5}</span>', "5", False),
    ("math", "So it is 6.\n% \\boxed{5}\n", "5", False),  # a commitment in a TeX comment
    ("math", "\\boxed{5}\n\nCheck: 0 = 5.", "5", False),  # a check that does not hold
    ("gsm8k", "#### 54\n\nCheck: 70 + 0 = 54.", "54", False),
    ("gsm8k", "#### \u202e15\u202c", "15", False),  # an override shows 51
    ("gsm8k", "#### 1 doubled", "1", False),  # a participle scales the amount
    ("math", "\\boxed{6 twelfths}", "6", False),  # an ordinal is a denominator
    ("math", "\\boxed{5} squared", "5", False),  # a word that scales the answer
    ("gsm8k", "\\boxed{68}\u00b2", "68", False),
    ("math", "\u7b54\u6848\u662f-5\u3002", "5", False),  # a minus after CJK text is a sign
    ("math", "Never \\boxed{7}.", "7", False),  # a denied or bounded answer
    ("gsm8k", "\\boxed{7} or higher.", "7", False),
    ("math", "~~\\boxed{7}~~", "7", False),  # struck out: says nothing
    ("gsm8k", "<del>7</del>", "7", False),
    ("gsm8k", "#### 8\n\nNot 8.", "8", False),  # a restatement that denies the answer
    ("math", "\\boxed{47} \\neq 47", "47", False),
    ("math", "\\boxed{23}, though 23 is incorrect.", "23", False),
    # neighbours that stay paid
    ("gsm8k", "the final answer is 15 gallons * 8 pints / gallon = 120 pints\n#### 120", "120",
     True),
    ("math", "The answer is $3! \\times 5! = \\boxed{720}$.", "720", True),
    ("math", "\\boxed{5}\n\nCheck: 2 \\times 2.5 = 5.", "5", True),
    # an embedding keeps one number's order, but any bidi control by a value refuses: soundness
    # first (the reader does not model the bidi algorithm)
    ("gsm8k", "#### \u202b92\u202c", "92", False),
    ("gsm8k", "#### 1 bed", "1", True),
    ("math", "24000 \\cdot 1.01^{30} \\approx \\boxed{32348}", "32348", True),
    ("math", "The one and only \\boxed{6}", "6", True),
    ("math", "The answer is 5. Yes, 5 is right.", "5", True),
    ("math", "\u7b54\u6848\u662f-5\u3002", "-5", True),
    ("gsm8k", "\\boxed{5} dozen eggs", "5", True),  # "how many dozen"
    ("math", "Zach can have at most $\\boxed{2}$ pencils left over.", "2", False),  # a bound
    ("math", "\\boxed{5} (option B is incorrect)", "5", True),
    ("math", "We find $x = 3$, and the answer is $6$.", "6", True),
    ("math", r"\boxed{i^2}", "-1", True),
    ("gsm8k", "So the total = 24 + 48 = 72.", "72", True),
    ("math", "The answer is 5. This is the one.", "5", True),
    ("math", r"The answer is $2\sqrt{2}$.", r"2\sqrt{2}", True),
    ("math", r"The answer is $3\pi$.", r"3\pi", True),
    ("math", "$x = 5$", "5", True),
    ("math", r"\boxed{5 \text{ cm}}", "5", True),
    ("math", r"\boxed{\mathbf{5}}", "5", True),
    ("math", r"\boxed{0}", "0", True),
    ("math", r"\boxed{\log_2 8}", "3", True),
    ("math", "2x = 4 so x = 2", "2", True),
    ("math", "उत्तर 8.5 है।", "8.5", True),
    ("gsm8k", "The answer is 0.", "0", True),
]


def test_census_classes_stay_closed() -> None:
    from reward_grammar import VERIFIERS

    wrong = []
    for verifier, completion, gold, paid in REGRESSIONS:
        reward = VERIFIERS[verifier](Case(completion, gold, "")).reward
        if (reward == 1.0) != paid:
            wrong.append((verifier, completion, gold, reward))
    assert not wrong, wrong


def test_zero_size_rules_are_blank() -> None:
    from verifiers.format import format_check

    for blank in (r"\rule{0pt}{0pt}", r"\smash{}\rule{0pt}{0pt}\,", r"\rule[2pt]{0mm}{5cm}"):
        assert format_check(f"<think>t</think><answer>{blank}</answer>").reward == 0.0, blank
    assert format_check(r"<think>t</think><answer>\rule{1em}{0.4pt} 5</answer>").reward == 1.0


def test_countdown_commitments_agree() -> None:
    from verifiers.countdown import countdown_reward

    # another expression committed or displayed beside the final one is a second answer
    assert countdown_reward("**3+12** & <answer>3+11</answer>", "14", numbers=[3, 11, 12]) == 0.0
    assert countdown_reward("#### 3+12\n<answer>3+11</answer>", "14", numbers=[3, 11, 12]) == 0.0
    assert countdown_reward("#### 3+12\n% #### 3+11\n", "14", numbers=[3, 11, 12]) == 0.0
    # the same expression twice, and reasoning closed by </think>, are one answer
    assert countdown_reward("#### 3+11\n<answer>3+11</answer>", "14", numbers=[3, 11]) == 1.0
    assert countdown_reward("<think>I try 3+12</think><answer>3+11</answer>", "14",
                            numbers=[3, 11, 12]) == 1.0


# h9: every template of the own-sentence and later-denial classes, enumerated once (the
# generated properties above draw them with random values and commitment forms).
def test_h9_every_tail_template_is_scored_as_labelled() -> None:
    from reward_grammar import H9_BOXES, H9_CHOICE_NOT_PAID, H9_NOT_PAID, H9_PAID, VERIFIERS

    wrong = []
    for verifier in ("math", "gsm8k"):
        for box in H9_BOXES:
            c, b = box.format(18), r"\boxed{18}"
            for kind, templates in H9_NOT_PAID.items():
                for tpl in templates:
                    text = tpl.format(c=c, b=b, g=18, o=19)
                    if VERIFIERS[verifier](Case(text, "18", "")).reward == 1.0:
                        wrong.append((verifier, kind, text))
            for tpl in H9_PAID:
                text = tpl.format(c=c, b=b, g=18, a=11, d=7)
                if VERIFIERS[verifier](Case(text, "18", "")).reward != 1.0:
                    wrong.append((verifier, "prose_after", text))
    for tpl in H9_CHOICE_NOT_PAID:
        text = tpl.format(g="C", o="A")
        if VERIFIERS["math"](Case(text, "C", "")).reward == 1.0:
            wrong.append(("math", "second_choice", text))
    assert not wrong, wrong


# h16: issue 30 round 3 (earlier answers under any label and behind invisible markup, two
# choice letters, a bound or approximation before the box, unlisted LaTeX commands, and the
# worked arithmetic that stays paid): generated in ``reward_grammar.H16_PROPERTIES``.
from reward_grammar import H16_PROPERTIES  # noqa: E402

for _prop in H16_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# h17: issue 30's chat end tokens, inline code and numerals side by side
# (``reward_grammar.H17_PROPERTIES``).
from reward_grammar import H17_PROPERTIES  # noqa: E402

for _prop in H17_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# h15: issue 30 round 3 (what follows the answer's own sentence is an allow-list of closing
# words): generated in ``reward_grammar.H15_PROPERTIES``.
from reward_grammar import H15_PROPERTIES  # noqa: E402

for _prop in H15_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)


def test_h15_roman_one_is_no_closing_word() -> None:
    from verifiers.math import math_reward

    # the pronoun stands only before a verb of its list; the numeral character "Ⅰ" is 1, never
    # a pronoun (round 20: Roman numeral characters read as their values)
    for tail in ("\u2160 above.", "I.", "The answer is I.", "I answer.", "a.", "The answer is a.",
                 "\u2160 have verified this."):
        assert math_reward("\\boxed{5}\n\n" + tail, "5") == 0.0, tail
    for tail in ("I have checked it.", "A quick check: 2 + 3 = 5."):
        assert math_reward("\\boxed{5}\n\n" + tail, "5") == 1.0, tail

# r4 (issue 30 round 4, the blind h18 set): invisible payloads, hidden choice letters,
# transcendental offsets, fenced format answers (``reward_grammar.R4_PROPERTIES``).
from reward_grammar import R4_PROPERTIES  # noqa: E402

for _prop in R4_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r5 (issue 30 round 5, the blind h21 set): value-first sentences and clauses, sentence
# openers, answer labels of many languages (``reward_grammar.R5_PROPERTIES``).
from reward_grammar import R5_PROPERTIES  # noqa: E402

for _prop in R5_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r6 (issue 30 round 6, the blind h22 set): what governs an answer clause, short openers, a
# value joined to the clause (``reward_grammar.R6_PROPERTIES``).
from reward_grammar import R6_PROPERTIES  # noqa: E402

for _prop in R6_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r7 (issue 30 round 7, the blind h23 set): values in words and raised digits, lone command
# lines, a stray </think>, openers before unspaced clauses, a condition on the line before
# (``reward_grammar.R7_PROPERTIES``).
from reward_grammar import R7_PROPERTIES  # noqa: E402

for _prop in R7_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r8 (issue 30 round 8, the blind h26 set): chains of equalities (``reward_grammar.R8_PROPERTIES``).
from reward_grammar import R8_PROPERTIES  # noqa: E402

for _prop in R8_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r9 (issue 30 round 9, the blind h27 set): an answer after a closed reasoning block is read
# alone (``reward_grammar.R9_PROPERTIES``).
from reward_grammar import R9_PROPERTIES  # noqa: E402

for _prop in R9_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r10 (issue 30 round 10, the blind h28 set): answer sentences of any language in the
# paragraph, decimal commas, tags inside HTML comments (``reward_grammar.R10_PROPERTIES``).
from reward_grammar import R10_PROPERTIES  # noqa: E402

for _prop in R10_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r11 (issue 30 round 11, the blind h30 set): the closing sentence's predicate by allow-list
# (``reward_grammar.R11_PROPERTIES``).
from reward_grammar import R11_PROPERTIES  # noqa: E402

for _prop in R11_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r12 (issue 30 round 12, the blind h36 set on real golds): empty Markdown blocks, numerals of
# no base, half-bracketed choices, terms in a variable (``reward_grammar.R12_PROPERTIES``).
from reward_grammar import R12_PROPERTIES  # noqa: E402

for _prop in R12_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r13 (issue 30 round 13): a JSON object's members side by side, JSON exponents
# (``reward_grammar.R13_PROPERTIES``).
from reward_grammar import R13_PROPERTIES  # noqa: E402

for _prop in R13_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r14 (issue 30 round 14, the blind h43 set): a labelled value of any form before the answer,
# signs against a gold's sign, bounds and falsity after it, JSON members, counters of other
# scripts, units with powers in the gold, hidden or struck format (``reward_grammar_r14``).
from reward_grammar_r14 import R14_PROPERTIES  # noqa: E402

for _prop in R14_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r15 (issue 30 round 15, the blind h44 set): indefinite subjects, examples, rejection marks and
# failure verbs around the value, collectives of the gold's items, overlay strikes, revisions
# in scripts without spaced stops, "option A" (``reward_grammar_r15``).
from reward_grammar_r15 import R15_PROPERTIES  # noqa: E402

for _prop in R15_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r16 (issue 30 round 16): a rejecting clause after the count noun of an uncommitted last
# number (``reward_grammar_r16``).
from reward_grammar_r16 import R16_PROPERTIES  # noqa: E402

for _prop in R16_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r17 (issue 30 round 17, the blind h49 and h50 sets): an answer committed in an earlier
# paragraph stands, whatever words follow it (``reward_grammar_r17``).
from reward_grammar_r17 import R17_PROPERTIES  # noqa: E402

for _prop in R17_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r18 (issue 30 round 18, the blind h51 set): earlier answers of any form, what stands before a
# reasoning block, emoji after an answer, values in markup outside the format's tags
# (``reward_grammar_r18``).
from reward_grammar_r18 import R18_PROPERTIES  # noqa: E402

for _prop in R18_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r19 (issue 30 round 19, h52's last shapes): values in any numeral form anywhere a reader sees
# an answer, countdown's earlier expressions in tags, tables and code, Kimi's reasoning markers,
# enclosing marks outside the format's tags (``reward_grammar_r19``).
from reward_grammar_r19 import R19_PROPERTIES  # noqa: E402

for _prop in R19_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r20 (issue 30 round 20: h54's Roman numerals, the blind h55 set): Roman numerals in a value's
# slot, the working's last computed result, equation chains into the box, "Q:"/"A:" lines, signed
# base numerals, chat-template turns and gpt-oss channels, financial CJK numerals
# (``reward_grammar_r20``).
from reward_grammar_r20 import R20_PROPERTIES  # noqa: E402

for _prop in R20_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)

# r21 (issue 30 round 21): an option chosen in words against the committed value, a constant
# aside in the answer, lower-case Roman numerals in a value's slot, a speaker's claim in the
# working's last line (``reward_grammar_r21``).
from reward_grammar_r21 import R21_PROPERTIES  # noqa: E402

for _prop in R21_PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)
