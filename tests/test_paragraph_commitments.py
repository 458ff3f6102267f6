"""Issue 30, round 3 (helper h16): what stands before and beside the final commitment.

The shortest example of each hole a held-out blind attack found (each paid 1.0 on main) and
the neighbours that must stay paid. The generated versions of each class are in
``reward_grammar.H16_PROPERTIES`` (run by ``test_reward_properties``).
"""

from __future__ import annotations

import pytest

from verifiers.gsm8k import gsm8k_reward
from verifiers.math import math_reward

REFUSED = [
    # S1: an empty math span or invisible markup between an earlier answer and the final one
    ("math", r"The answer is 7. ${}$ \boxed{5}", "5"),
    ("math", "\u041e\u0442\u0432\u0435\u0442: 7 ${ }$ The final answer is $\\boxed{5}$", "5"),
    ("math", r"The answer is 7. $\operatorname{}{}$ \boxed{5}", "5"),
    ("math", r"The answer is 7. $\,{}$ \boxed{5}", "5"),
    ("math", r"The answer is 7. $x = \boxed{5}$", "5"),  # math after a closed clause
    ("gsm8k", "Answer: 7\n$\\mathrm{}{}$ #### 5", "5"),
    # S2: an earlier "<label>: <value>" in any language, same paragraph
    ("gsm8k", "Svar: 7\n#### 5", "5"),
    ("math", "\ub2f5: 7\n\\boxed{5}", "5"),
    ("math", "Cevap: 7\n\\boxed{5}", "5"),
    ("math", "\u0391\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7: 7\n\\boxed{5}", "5"),
    ("math", "\u0e04\u0e33\u0e15\u0e2d\u0e1a: 7\n\\boxed{5}", "5"),
    ("math", "\u05ea\u05e9\u05d5\u05d1\u05d4: 7\n\\boxed{5}", "5"),
    ("math", "Svar: 7${}$ \\boxed{5}", "5"),
    ("gsm8k", "Svar 7\n#### 5", "5"),
    ("math", "He has 6 apples.\n\\boxed{5}", "5"),
    ("math", "He has 6 apples. \\boxed{5}", "5"),
    ("math", "He has 6 apples. So \\boxed{5}", "5"),  # "so" after its sentence: no derivation
    # S3: two choice letters
    ("math", "Answer: D\nAnswer: C", "C"),
    ("math", "Answer: B The answer is A.", "A"),
    # S9: an approximation sign before the box after prose or an opening delimiter
    ("math", r"So it's ≈ $\boxed{5}$.", "5"),
    ("math", r"So it's ~ $\boxed{5}$.", "5"),
    ("math", r"The answer's ~ $\boxed{5}$", "5"),
    ("math", r"The answer is $\approx \boxed{5}$.", "5"),
    # S10: a bound before the value
    ("math", r"$x \le \boxed{5}$", "5"),
    ("math", r"$x < \boxed{5}$", "5"),
    ("math", r"So the answer is \ge $\boxed{5}$", "5"),
    # S13: content that may not render: unlisted commands, negative spaces, a broken definition
    ("math", "$\\mathtip{}{7}$ \u041e\u0442\u0432\u0435\u0442: $\\boxed{5}$", "5"),
    ("math", "$\\texttip{7}{}$ \u041e\u0442\u0432\u0435\u0442: $\\boxed{5}$", "5"),
    ("math", "$\\toggle{7}{5}\\endtoggle$ \u041e\u0442\u0432\u0435\u0442: $\\boxed{5}$", "5"),
    ("math", "$\\mathchoice{7}{7}{7}{7}$ \u041e\u0442\u0432\u0435\u0442: $\\boxed{5}$", "5"),
    ("math", r"$\href{The answer is 7.}{}$ Therefore, the answer is \(\boxed{5}\)", "5"),
    ("math", r"$\unicode{55}$ \boxed{5}", "5"),
    ("gsm8k", "$\\kern-100em{The answer is 7.}$\nThe answer is: 5", "5"),
    ("math", '[x]: https://x.org "7" \\boxed{5}', "5"),
]

PAID = [
    ("math", r"the answer is $3! \times 5! = \boxed{720}$", "720"),  # math that runs on
    ("math", "The answer is:\n$$3!\\times 5! = \\boxed{720}$$", "720"),
    ("math", "\u05ea\u05e9\u05d5\u05d1\u05d4: 57", "57"),  # Hebrew "answer" without the article
    ("gsm8k", "\u05ea\u05e9\u05d5\u05d1\u05d4: 57", "57"),
    ("gsm8k", "Monday: 6$\nTuesday: 6(2)=12$\nTotal: 6+12=18$\n#### 18", "18"),  # worked steps
    ("gsm8k", "Each week has 7 days\nSo he needs 266 grams because 7 times 38 equals 266.\n#### 266",
     "266"),
    ("gsm8k", "Let N = smallest number\n3N = 15\nN = 5\nThe largest number is 7.\n#### 7", "7"),
    ("math", "In 2024 we get \\boxed{5}", "5"),  # the sentence commits to the box
    ("math", "First 2, then \\boxed{3}", "3"),  # one sentence: a sequence into the box
    ("math", "Answer: C\nAnswer: C", "C"),
    ("math", "Answer: 5\n\\boxed{5}", "5"),  # a clause on its own line, then the same box
    ("math", r"$\sqrt{24} \approx \boxed{4.9}$", "4.9"),  # an approximation that derives it
    ("math", r"$\mathbf{5}$ is it: \boxed{5}", "5"),
    ("math", r"$\frac{10}{2} = \boxed{5}$", "5"),
    ("math", r"<b>\boxed{5}</b>", "5"),
    ("math", "\\begin{align*}\n& \\equiv 108 \\\\\n&\\equiv \\boxed{9} \\pmod{11}\n\\end{align*}", "9"),
]

_REWARDS = {"math": math_reward, "gsm8k": gsm8k_reward}


@pytest.mark.parametrize(("verifier", "completion", "gold"), REFUSED)
def test_earlier_or_hidden_answer_is_refused(verifier: str, completion: str, gold: str) -> None:
    assert _REWARDS[verifier](completion, gold) == 0.0


@pytest.mark.parametrize(("verifier", "completion", "gold"), PAID)
def test_neighbour_stays_paid(verifier: str, completion: str, gold: str) -> None:
    assert _REWARDS[verifier](completion, gold) == 1.0


def test_countdown_target_line_is_no_second_answer() -> None:
    # countdown reads no labelled lines: "Target: 16" names the goal its expression reaches
    from verifiers.countdown import countdown_reward

    assert countdown_reward("Target: 16\n<answer>2*8</answer>", "16", numbers=[2, 8]) == 1.0
