"""The normaliser reads what renders (issue 30 item 1; the generated properties are in
``tests/reward_grammar.py``'s rendering block). These pin the shortest form of each class
the blind attack found (``/work/reports/h2-findings.md``: S1-b, S1-c, S1-d, S3-a, C-1, C-2),
the neighbours that must stay paid, and the time of the slowest shapes of the new forms."""

from __future__ import annotations

import time

import pytest

from verifiers import hidden_forms
from verifiers.answer_text import MAX_HIDDEN_FORMS, read_visible
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check

# (completion, gold, paid): each "not paid" one was paid 1.0 before the fix.
CASES = [
    # S1-b: the visible answer is wrong, the gold sits in content that does not render
    ("The answer is 6 <script>#### 7</script>", "7", False),
    ("Answer: 6 <template>\\boxed{7}</template>", "7", False),
    ("The answer is $6$ $1 % \\boxed{7}\n$", "7", False),
    ("\\boxed{6} \\if0 \\boxed{7} \\fi", "7", False),
    ("\\boxed{6} <noscript>7</noscript>", "7", False),
    ("\\boxed{6} <?php /* \\boxed{7} */ ?>", "7", False),
    ('\\boxed{6} <span class="sr-only">\\boxed{7}</span>', "7", False),
    ("\\boxed{6}\n\n[comment]: <> (\\boxed{7})\n", "7", False),
    ('\\boxed{6}\n\n[x]: http://e.com "\\boxed{7}"\n', "7", False),
    ("\\boxed{6} <details><summary>more</summary>\\boxed{7}</details>", "7", False),
    # S3-a: the visible answer is right, another value hides beside it
    ("\\if0 6 \\fi \\boxed{7}", "7", False),
    ("<script>6</script> \\boxed{7}", "7", False),
    ('<img src=a.png alt="6"> \\boxed{7}', "7", False),
    ('<abbr title="6">ans</abbr> \\boxed{7}', "7", False),
    ('[see](http://e.com "6") \\boxed{7}', "7", False),
    ("<![CDATA[6]]> \\boxed{7}", "7", False),
    ("\\label{6} \\boxed{7}", "7", False),
    ("\\def\\ans{6} \\boxed{7}", "7", False),
    ("\\newcommand{\\ans}{6} \\boxed{7}", "7", False),
    ("$\\class{hidden}{6}$ \\boxed{7}", "7", False),
    ("$\\style{display:none}{6}$ \\boxed{7}", "7", False),
    ("$\\htmlStyle{display:none}{6}$ \\boxed{7}", "7", False),
    ("$\\scalebox{0}{6}$ \\boxed{7}", "7", False),
    ('<span style="opacity:0">6</span> \\boxed{7}', "7", False),
    ('<span style="color:transparent">6</span> \\boxed{7}', "7", False),
    ('<span style="color:rgba(0,0,0,0)">6</span> \\boxed{7}', "7", False),
    ('<span style="position:absolute;left:-9999px">6</span> \\boxed{7}', "7", False),
    ('<svg><text opacity="0">6</text></svg> \\boxed{7}', "7", False),
    ('<style>.a::before{content:"6"}</style> \\boxed{7}', "7", False),
    ("<head><title>6</title></head> \\boxed{7}", "7", False),
    # nested: the inner end tag does not end the outer hidden element
    ("<div hidden><div>x</div> 6</div> \\boxed{7}", "7", False),
    # S1-c: a bidi override renders the digits reversed
    ("#### \u202e15\u202c", "15", False),
    ("\\boxed{\u206715\u2069}", "15", False),
    ("Answer: \u206713\u2069", "13", False),
    # S1-d / C-1: a sign glued to a word of a script without spaces
    ("答案是-5。", "5", False),
    ("答案是-5。", "-5", True),
    ("是–218", "-218", True),
    ("答案是−84。", "-84", True),
    ("उत्तर-621", "621", False),
    ("ответ-917", "-917", True),
    # a word wholly in Cyrillic is read as itself, not through the Latin confusables
    ("Ответ: 917", "917", True),
    ("\\boxed{5} хоr 6", "5", False),  # a run of look-alikes touching a Latin letter is Latin
    # C-2: currency signs dress the amount
    ("The answer is €92.", "92", True),
    ("\\boxed{€92}", "92", True),
    ("The answer is €8,799,461.", "8799461", True),
    ("\\boxed{92 €}", "92", True),
    ("\\boxed{£92}", "92", True),
    # neighbours that stay paid: markup that renders, ASCII subtraction, RTL words
    ("<b>Step 1.</b> 2 + 3 = 5.\n\n\\boxed{5}", "5", True),
    ('<span lang="en">So</span> \\boxed{5}', "5", True),
    ("$x > 0 \\iff x^3 > 0$.\n\n\\boxed{5}", "5", True),
    ("\\textcolor{red}{Note:} the answer is \\boxed{5}", "5", True),
    ("$50\\%$ of 10 is 5.\n\n\\boxed{5}", "5", True),
    ("[see the hint](#hint).\n\n\\boxed{5}", "5", True),
    ("We use \\label{eq:main} here.\n\n\\boxed{5}", "5", True),  # a key with no value
    ("\\boxed{x-5}", "x-5", True),
    ("\\boxed{2\\pi-3}", "2\\pi-3", True),
    ("الجواب هو 15", "15", True),
    ("\u202bمرحبا\u202c\n\n\\boxed{15}", "15", True),  # an embedding with no value in reach
    ("She paid $12.50 and 10% off, so she saved $1.25.\n#### 1.25", "1.25", True),
]


@pytest.mark.parametrize(("completion", "gold", "paid"), CASES)
def test_rendering_cases(completion: str, gold: str, paid: bool) -> None:
    for check in (math_check, gsm8k_check):
        if check is gsm8k_check and ("\\" in gold or "x" in gold):
            continue  # not an amount
        verdict = check(completion, gold)
        assert (verdict.reward == 1.0) == paid, (check.__name__, verdict)


def test_a_bidi_refusal_names_the_control() -> None:
    verdict = math_check("\\boxed{\u202e15\u202c}", "15")
    assert verdict.reward == 0.0
    assert "U+202E" in str(verdict.details), verdict


def test_content_that_may_render_is_kept_and_what_surely_does_not_is_removed() -> None:
    # a style may or may not hide its element: its words still count ("not" included)
    shown, hidden = read_visible('<span style="color:red">not</span> \\boxed{5}')
    assert "not" in shown and hidden is None
    assert math_check('<span style="color:red">not</span> \\boxed{5}', "5").reward == 0.0
    shown, hidden = read_visible("<script>var x</script> \\boxed{5}")
    assert "var" not in shown and hidden is None
    # the link text renders; its destination does not
    assert read_visible("[the text](#a) x") == (" the text  x", None)


def test_html_element_sets_do_not_overlap() -> None:
    # every element HTML defines is judged once: text, not rendered, or not plain text
    text = hidden_forms._TEXT_ELEMENTS
    not_rendered = set(hidden_forms._NOT_RENDERED)
    not_plain = set(hidden_forms._NOT_PLAIN_TEXT)
    assert not text & not_rendered and not text & not_plain and not not_rendered & not_plain


MB = 1_000_000
SLOW_SHAPES = {
    "uncertain-spans": "<span class=a>" * (MB // 14),
    "links": "[a](b)" * (MB // 6),
    "definitions": "[a]: b\n" * (MB // 7),
    "conditionals": "\\if0 \\fi" * (MB // 8),
    "open-conditionals": "\\if" * (MB // 3),
    "math-percent": "$" + " %" * (MB // 2),
    "mixed": "<b>[x](y) \\label{a} $x%y$ " * (MB // 30),
    "bidi": "\u202e5" * (MB // 2),
    "bidi-marks": "\u200f" * MB + "5",
    "glued-signs": "是-5" * (MB // 3),
    "euros": "€5" * (MB // 2),
    "scripts": "<script>" * (MB // 8),
    # h47: a run of letters with no space, before an answer (a run that a repeated word
    # pattern could split four ways took seconds at 150 characters)
    "cjk-run": "\u7b54" * (MB // 3) + "\nThe answer is 646.",
    "cyrillic-run": "\u044f" * (MB // 2) + "\nThe answer is 646.",
    "latin-run": "a" * MB + ":\n646",
    "spaced-letters": "a " * (MB // 2) + "\n#### 646",
    "digit-run": "1" * MB + " 5",
    # a closing line of answer words, currencies or Vietnamese syllables repeated (each
    # occurrence was judged alone: 1 MB of "số " took 1 s)
    "answer-word-line": "\u7b54\u6848\u662f 72 " + "\u662f " * (MB // 2),
    "currency-line": "\u041e\u0442\u0432\u0435\u0442: 72 " + "\u0440\u0443\u0431\u043b\u044f " * (MB // 6),
    "syllable-line": "\u0110\u00e1p s\u1ed1: 72 " + "s\u1ed1 " * (MB // 4),
}
LIMIT_S = 1.5  # 0.5 s on an idle machine, x3 for shared CPUs (as test_adversarial_extract)


@pytest.mark.parametrize("name", sorted(SLOW_SHAPES))
def test_new_forms_are_read_in_linear_time(name: str) -> None:
    text = SLOW_SHAPES[name]
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        verdict = math_check(text, "5")
        best = min(best, time.perf_counter() - start)
    assert verdict.reward == 0.0, verdict
    assert best < LIMIT_S, (name, best)


def test_past_the_cap_the_rest_reads_as_hidden() -> None:
    text = "\\phantom{x}" * (MAX_HIDDEN_FORMS + 5) + " 6 \\boxed{5}"
    shown, hidden = read_visible(text)
    assert "\\boxed" not in shown and hidden is not None


# h17, issue 30: a chat template's end token closes the turn; inline code shows its text.
END_TOKENS = ["<|im_end|>", "<|eot_id|>", "<|endoftext|>", "</s>", "<|end|>", "<end_of_turn>",
              "<|eot|>", "<\uff5cend\u2581of\u2581sentence\uff5c>"]


@pytest.mark.parametrize("token", END_TOKENS)
@pytest.mark.parametrize("body", ["The answer is 57.", "**Answer: 57**", "#### 57", "\\boxed{57}"])
def test_an_end_token_at_the_end_is_the_end_of_the_answer(token: str, body: str) -> None:
    for tail in ("", "\n", f"\n{token}{token}\n"):
        completion = body + token + tail
        assert math_check(completion, "57").reward == 1.0, completion
        assert gsm8k_check(completion, "57").reward == 1.0, completion
        assert math_check(completion, "58").reward == 0.0, completion


@pytest.mark.parametrize("token", END_TOKENS)
def test_a_value_after_an_end_token_is_refused(token: str) -> None:
    # what follows the end of the turn is not shown as the answer: a value there is hidden
    for completion, gold in ((f"#### 57{token}\n#### 58", "58"), (f"#### 57{token}\n#### 58", "57"),
                             (f"\\boxed{{57}}{token}fifty-eight", "57")):
        verdict = math_check(completion, gold)
        assert verdict.reward == 0.0 and verdict.reason == "malformed", (completion, verdict)
    # prose after it is dropped with the rest of the turn
    assert math_check(f"#### 57{token}Hope this helps!", "57").reward == 1.0


def test_strike_through_is_no_end_token() -> None:
    assert math_check("<s>\\boxed{57}</s>", "57").reward == 0.0
    assert math_check("<s>56</s> \\boxed{57}", "57").reward == 0.0
    assert read_visible("<s>5</s> x</s>")[1] is not None


@pytest.mark.parametrize("completion", ["#### `57`", "The answer is `57`.", "\\boxed{`57`}",
                                        "Final answer: `57`"])
def test_the_answer_in_inline_code_is_read(completion: str) -> None:
    assert math_check(completion, "57").reward == 1.0
    assert gsm8k_check(completion, "57").reward == 1.0
    assert math_check(completion, "58").reward == 0.0
    # two values stay two values
    assert math_check(completion.replace("57", "57` or `58"), "57").reward == 0.0



def test_a_value_in_a_long_attribute_is_hidden_content():
    """An attribute's value of any length is read (a 2,500-character padding once hid it)."""
    from verifiers.math import math_check

    for pad in (0, 2_500, 50_000):
        v = math_check('<div answer="' + "x" * pad + ' 12">\\boxed{11}</div>', "11")
        assert (v.reward, v.reason) == (0.0, "malformed"), (pad, v)
