"""The slowest completion shapes we know, timed through every text reward (issue 30).

Each shape is about 1 MB. The bar: every call judged in <= 0.5 s on an idle machine, none
over 5 s. Prints one row per shape with the time of each reward (best of ``--repeat``), then
the worst. ``tests/test_adversarial_extract.py`` holds the same shapes under a looser limit
(shared CPUs).

    python benchmarks/verify_worst_case.py --repeat 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from verifiers.countdown import countdown_check
from verifiers.format import format_check
from verifiers.gsm8k import gsm8k_check
from verifiers.math import math_check

MB = 1_000_000

def _padded(head: str) -> str:
    """``head``, then words (no markup, no value) up to 1 MB."""
    return head + "word " * ((MB - len(head)) // 5)


SHAPES: dict[str, str] = {
    "boxed-words": "\\boxeda" * (MB // 7),  # markers that are no boxes
    "hash-run": "#" * MB,
    "closed-boxes": r"\boxed{5}" * (MB // 9),
    "open-boxes": r"\boxed{" * (MB // 7),
    "nested-braces": "{" * (MB // 2) + "}" * (MB // 2),
    "spaced-digits": "5 " * (MB // 2),
    "tail-values": r"\boxed{5}" + " 5" * (MB // 2 - 10),
    "paragraph-boxes": ("\\boxed{5} " * 50 + "\n\n") * (MB // 510),
    "iffalse": "\\iffalse" * (MB // 8),
    "html-comments": "<!--" * (MB // 4),
    "hidden-spans": "<span style='display:none'>" * (MB // 28),
    "white": "{\\color{white}" * (MB // 14),
    "phantoms": "\\phantom{" * (MB // 9),
    "text-wrappers": "\\text{or}" * (MB // 9),
    "cjk-or": "\u6216" * MB,
    "braille-blank": "\u2800" * MB,
    "minus-signs": "\u2212" * MB,
    "answer-is": "answer is " * (MB // 10),
    "answer-tags": "<answer>" * (MB // 8),
    "dollars": "$" * MB,
    "sentences": "It is 5. " * (MB // 9),
    "value-first": "6 is correct. " * (MB // 14),  # sentences that open with a value
    "openers": "Probably, " * (MB // 10) + "the answer is 5.",  # one opener part per comma
    "labels": "Nearly: 5\n" * (MB // 10),
    "equals": "= " * (MB // 2),
    "number-words": "five " * (MB // 5),
    "answer-values": "The answer is " + "17 " * (MB // 3 - 5),  # h31: 0.55 s in GSM8K's reader
    "sentence-stops": "6. " * (MB // 3),  # a sentence start every 3 characters
    "check-lines": "Check: 2 + 3 = 5\n" * (MB // 17),  # round 11's check lines read from the end
    # h35: one line of sentences, each gap tried for a check opening: 594 s at 600 KB
    "or-sentences": "6. Or " * (MB // 6),
    "short-sentences": "a. " * (MB // 3),
    "check-mark-sentences": "x \u2713. " * (MB // 5),
    # h38: spacing runs that two patterns' space runs split between them (quadratic)
    "spaces-after-stop": "So." + " " * (MB - 8) + " 5",
    "commas-before-value": "The answer is" + ", " * (MB // 2 - 10) + " 5",
    "spacing-commands-after-colon": _padded(":" + "\\:" * 19_000 + " 5"),
    "stars-after-clause": "The answer is " + "*" * (MB - 15),  # h38: 0.58 s before (a char loop)
    # round 16 (h47): a run of letters with no space, which a repeated word pattern could
    # split four ways (150 CJK characters took 4 s), and closing lines of one word repeated
    "cjk-run": "\u7b54" * (MB // 3) + "\nThe answer is 5.",
    "cyrillic-run": "\u044f" * (MB // 2) + "\nThe answer is 5.",
    "latin-run": "a" * MB + ":\n5",
    # round 17 (h50): a run of stars before a paragraph break (two patterns split it every way:
    # 40 stars took 6 s), a chain of bare paragraphs (recursed once per paragraph), and many
    # short paragraphs before the answer (the earlier-answer reader's loop)
    "stars-then-answer": "*" * (MB - 20) + "\n\nThe answer is 5.",
    "bare-paragraphs": "5\n\n" * (MB // 3),
    "word-paragraphs": "word\n\n" * (MB // 6) + "The answer is 5.",
    "spaced-letters": "a " * (MB // 2) + "\n#### 5",
    "answer-word-line": "\u7b54\u6848\u662f 5 " + "\u662f " * (MB // 2),
    "currency-line": "\u041e\u0442\u0432\u0435\u0442: 5 " + "\u0440\u0443\u0431\u043b\u044f " * (MB // 6),
    "syllable-line": "\u0110\u00e1p s\u1ed1: 5 " + "s\u1ed1 " * (MB // 4),
    # round 18: one-line conclusions, labels with a copula, pictographs between digits, values
    # hidden in markdown outside format's tags
    "final-marked-lines": "- $7$ (final)\n\n" * (MB // 15) + "\\boxed{5}",
    "label-word-copula": "\u0110\u00e1p \u00e1n l\u00e0 ellipse.\n\n" * (MB // 20) + "\\boxed{5}",
    "emoji-digits": "1\U0001f60a" * (MB // 2) + " The answer is 5.",
    "outside-images": "<think>a</think><answer>4</answer>" + "![x](y.png)" * (MB // 11),
    "outside-refdefs": "<think>a</think><answer>4</answer>" + "\n[x]: # (y)" * (MB // 11),
    "angle-brackets": "<" * MB,  # no tag opens "<<": h27 found it at 0.53 s
    "angle-letters": "<a" * (MB // 2),  # "<a" opens no tag without a space or ">"
    "think-angles": "<think>x</think>\n" + "<" * (MB - 17),  # the answer part read apart
    "backslashes": "\\" * MB,  # h28: 0.63 s in countdown on a busy machine
    "commands": "\\a" * (MB // 2),
    # Since h28 a text with more "<" or "\" than MAX_ANGLE_BRACKETS / MAX_BACKSLASHES is
    # refused at one count (most shapes above). Below, the most tags and commands a completion
    # may hold, each shape padded to 1 MB.
    "tags-under-cap": _padded("<span style='x'>5</span> " * 5_000),
    "angles-under-cap": _padded("<a" * 10_000),
    "boxes-under-cap": _padded("\\boxeda" * 20_000),
    "commands-under-cap": _padded("\\a" * 20_000),
    "spacing-under-cap": _padded("\\quad" * 20_000),
    "wrappers-under-cap": _padded("\\text{or}" * 20_000),
    "backslashes-under-cap": _padded("\\" * 20_000),
}

REWARDS: dict[str, Callable[[str], object]] = {
    "math": lambda t: math_check(t, "5"),
    "gsm8k": lambda t: gsm8k_check(t, "5"),
    "countdown": lambda t: countdown_check(t, "5", numbers=[5]),
    "format": lambda t: format_check(f"<think>a</think><answer>{t}</answer>"),
}


def time_shape(text: str, repeat: int) -> dict[str, float]:
    """Best-of-``repeat`` seconds of each reward on ``text``."""
    times = {}
    for name, reward in REWARDS.items():
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            reward(text)
            best = min(best, time.perf_counter() - start)
        times[name] = best
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="runs per call; the best counts")
    args = parser.parse_args(argv)
    worst = (0.0, "", "")
    print(f"{'shape':18s} {'chars':>9s}  " + "  ".join(f"{n:>9s}" for n in REWARDS))
    for shape, text in SHAPES.items():
        times = time_shape(text, args.repeat)
        print(f"{shape:18s} {len(text):9d}  " + "  ".join(f"{t:8.3f}s" for t in times.values()))
        for name, t in times.items():
            worst = max(worst, (t, shape, name))
    print(f"worst: {worst[0]:.3f} s ({worst[2]} on {worst[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
