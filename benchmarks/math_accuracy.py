"""Accuracy and false positives of ``verifiers.math`` against math-verify, per labelled set.

Sets, each reported on its own:

- ``suite``: ``tests/math_suite.py`` (categories ``trap_*`` are the wrong answers a lenient
  grader accepts), by category group.
- every ``tests/adversarial_*_cases.py`` (written as a policy would try them: near-misses and
  the right answers), by class.
- every ``tests/public_*_cases.py``: cases from other graders' test suites, not written by us
  (the module names its sources and licences), by source.
- ``math500_dressed`` (when ``$RLVR_DATA_DIR/math500/test.jsonl`` exists): a held-out set made
  by rule, not by hand, from the MATH-500 gold answers (``dressed_math500``): each gold in an
  equivalent spelling a model writes (label True, grouped by rule) and with one value changed
  (label False), the rules and the choices among them drawn from a seeded generator.

The last two kinds expose ``CASES: list[(gold, completion, expected_reward, class_name)]``; a
reward of 1.0 means equivalent. Both graders see the same (gold, completion) pairs unchanged;
math-verify is called the way its README shows (``verify(parse(gold), parse(completion))``,
the gold wrapped in ``$...$`` so that it is read as LaTeX; an exception counts as "not
equivalent"). A false positive is a "not equivalent" case judged equivalent.

    python benchmarks/math_accuracy.py            # every set, with each disagreement
    python benchmarks/math_accuracy.py --quiet    # the tables only
    python benchmarks/math_accuracy.py --quiet --sets math500_dressed --seed 7
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import random
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS.parent))
sys.path.insert(0, str(TESTS))

from verifiers.math import math_check  # noqa: E402

Case = tuple[str, str, bool, str]  # gold, completion, equivalent, group


def math_verify_judge(gold: str, pred: str) -> bool:
    from math_verify import parse, verify

    try:
        return bool(verify(parse(f"${gold}$"), parse(pred)))
    except Exception:  # noqa: BLE001 - a crash counts as "not equivalent"
        return False


_BOX = "The answer is $\\boxed{%s}$."
_INT_RE = re.compile(r"-?\d+")
_FRAC_RE = re.compile(r"(-?)\\[dt]?frac\{(\d+)\}\{(\d+)\}")
_COEF_SQRT_RE = re.compile(r"(\d+)\s*\\sqrt\{(\d+)\}")


def _top_level_split(text: str, seps: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c in "([{"
        depth -= c in ")]}"
        if c in seps and depth == 0 and i > 0:
            parts.append(text[start:i])
            start = i
    return [*parts, text[start:]]


def _dressings() -> dict[str, Callable[[str, random.Random], str | None]]:
    """Equivalent spellings by rule: each takes a gold and returns a spelling or None."""

    def thousands(g: str, rng: random.Random) -> str | None:
        if not _INT_RE.fullmatch(g) or abs(int(g)) < 1000:
            return None
        return f"{int(g):,}".replace(",", rng.choice([",", "{,}", "\\,"]))

    def trailing_zero(g: str, rng: random.Random) -> str | None:
        if _INT_RE.fullmatch(g):
            return g + ".0"
        return g + "0" if re.fullmatch(r"-?\d*\.\d+", g) else None

    def frac_forms(g: str, rng: random.Random) -> str | None:
        m = _FRAC_RE.fullmatch(g)
        if m is None:
            return None
        sign, num, den = m.group(1), int(m.group(2)), int(m.group(3))
        d = den
        for p in (2, 5):
            while d % p == 0:
                d //= p
        forms = [
            f"{sign}{num}/{den}",
            rf"{sign}\dfrac{{{num}}}{{{den}}}",
            rf"\frac{{{sign}{num}}}{{{den}}}",
        ]
        if d == 1 and den > 1:
            forms.append(sign + f"{num / den:.10f}".rstrip("0"))
        return rng.choice(forms)

    def sqrt_fold(g: str, rng: random.Random) -> str | None:
        m = _COEF_SQRT_RE.fullmatch(g)
        if m is None:
            return None
        return rf"\sqrt{{{int(m.group(1)) ** 2 * int(m.group(2))}}}"

    def commute(g: str, rng: random.Random) -> str | None:
        if "=" in g or "," in g or "\\text" in g:
            return None
        parts = _top_level_split(g, "+-")
        if len(parts) != 2 or not parts[1].startswith("+") or not parts[0].strip():
            return None
        return f"{parts[1][1:].strip()} + {parts[0].strip()}"

    def left_right(g: str, rng: random.Random) -> str | None:
        if "\\left" in g or not (g.startswith("(") and g.endswith(")")) or "," not in g:
            return None
        return rf"\left( {g[1:-1]} \right)"

    def assignment(g: str, rng: random.Random) -> str | None:
        if re.search(r"[=(\[{,]|\\text", g) or re.search(
            r"[a-zA-Z]", re.sub(r"\\[a-zA-Z]+", "", g)
        ):
            return None
        return f"{rng.choice(['k', 'n', 'N', 'A'])} = {g}"

    def spacing(g: str, rng: random.Random) -> str | None:
        if "\\text" in g or "\\mbox" in g:
            return None
        if re.search(r"\d,(?:\\!)?\s*\d{3}(?!\d)", g):
            return None  # a space after a thousands comma would make two numbers
        spaced = re.sub(r"\s*([+=,])\s*", r" \1 ", g).replace(" ,", ",")
        return spaced if spaced != g else None

    def text_choice(g: str, rng: random.Random) -> str | None:
        m = re.fullmatch(r"\\text\{\(([A-E])\)\}", g)
        return rng.choice([f"({m.group(1)})", m.group(1)]) if m else None

    def permute(g: str, rng: random.Random) -> str | None:
        if re.search(r"\d,(?:\\!)?\d{3}(?!\d)", g):
            return None  # 10,\!080 is one number
        braced = g.startswith("\\{") and g.endswith("\\}")
        body = g[2:-2] if braced else g
        items = [i.lstrip(",").strip() for i in _top_level_split(body, ",")]
        if len(items) < 2 or (not braced and g.startswith("(")) or len(set(items)) < len(items):
            return None
        items = items[1:] + items[:1]
        return ("\\{" + ", ".join(items) + "\\}") if braced else ", ".join(items)

    def pi_coefficient(g: str, rng: random.Random) -> str | None:
        m = re.fullmatch(r"\\frac\{(\d*)\s*\\pi\}\{(\d+)\}", g)
        return rf"\frac{{{m.group(1) or 1}}}{{{m.group(2)}}}\pi" if m else None

    def unicode(g: str, rng: random.Random) -> str | None:
        out = re.sub(r"\\sqrt\{(\d+)\}", "√\\1", g).replace("^\\circ", "°").replace("\\pi", "π")
        return out if out != g else None

    def cdot(g: str, rng: random.Random) -> str | None:
        out = re.sub(r"(\d)\s*(\\sqrt|\\pi)", r"\1 \\cdot \2", g)
        return out if out != g else None

    def inequality(g: str, rng: random.Random) -> str | None:
        m = re.fullmatch(r"(?:\\left)?([\[(])\s*(.+?)\s*,\s*(.+?)\s*(?:\\right)?([\])])", g)
        if m is None or "," in m.group(2) + m.group(3):
            return None
        if m.group(1) + m.group(4) == "()" and "infty" not in g:
            return None  # "(a, b)" in MATH-500 is a point as often as an interval
            return None
        lo, hi = m.group(2), m.group(3)
        left = "" if "infty" in lo else lo + (r" \le " if m.group(1) == "[" else " < ")
        right = "" if "infty" in hi else (r" \le " if m.group(4) == "]" else " < ") + hi
        return f"{left}x{right}" if left or right else None

    def label_gold(g: str, rng: random.Random) -> str | None:
        m = re.fullmatch(r"([a-zA-Z])\s*=\s*([^=<>]+)", g)
        return m.group(2).strip() if m else None

    return {
        "inequality": inequality,
        "label_gold": label_gold,
        "permute": permute,
        "pi_coefficient": pi_coefficient,
        "unicode": unicode,
        "cdot": cdot,
        "thousands": thousands,
        "trailing_zero": trailing_zero,
        "fraction": frac_forms,
        "sqrt_fold": sqrt_fold,
        "commute": commute,
        "left_right": left_right,
        "assignment": assignment,
        "spacing": spacing,
        "choice": text_choice,
    }


def _tuple_items(g: str) -> list[str] | None:
    """The entries of a tuple gold ``(a, b, ...)`` (not an interval with ``\\infty``), else None."""
    m = re.fullmatch(r"(\\left)?\((.*?)(\\right)?\)", g)
    if m is None or "\\infty" in g or bool(m.group(1)) != bool(m.group(3)):
        return None
    inner, depth = m.group(2), 0
    for c in inner:
        depth += (c in "([{") - (c in ")]}")
        if depth < 0:
            return None  # "(a+5)(b+2)": two groups, not one tuple
    items = [i.lstrip(",").strip() for i in _top_level_split(inner, ",")]
    return items if len(items) >= 2 and depth == 0 else None


def _changed(g: str, rng: random.Random) -> str | None:
    """``g`` with one numeral changed (its last digit stepped by 1..8), a tuple with two
    distinct entries swapped, or a tuple written as a set: a different answer."""
    items = _tuple_items(g)
    if items and rng.random() < 0.3:
        return "\\{" + ", ".join(items) + "\\}"
    if items and rng.random() < 0.5 and items[0] != items[1]:
        items[0], items[1] = items[1], items[0]
        return "(" + ", ".join(items) + ")"
    digits = [m.start() for m in re.finditer(r"\d(?!\d)", g)]
    if not digits:
        return None
    at = rng.choice(digits)
    new = str((int(g[at]) + rng.randint(1, 8)) % 10)
    if new == "0" and (at == 0 or not g[at - 1].isdigit()) and at + 1 < len(g) and g[at + 1] == ".":
        new = "1"  # never a leading 0 that reads as the same number
    return g[:at] + new + g[at + 1 :]


_COMMON = ["assignment", "trailing_zero", "spacing"]


def dressed_math500(seed: int = 0) -> list[Case]:
    """The MATH-500 golds, each in up to two equivalent spellings (label True, group = rule)
    and with one numeral changed (label False, group ``changed``); [] without the data."""
    path = Path(os.environ.get("RLVR_DATA_DIR", "")) / "math500" / "test.jsonl"
    if not os.environ.get("RLVR_DATA_DIR") or not path.is_file():
        return []
    rng = random.Random(seed)
    rules = _dressings()
    cases: list[Case] = []
    for line in path.read_text().splitlines():
        gold = json.loads(line)["answer"].strip()
        # Rules that fit few golds first, in a seeded order; the ones that fit every integer last.
        names = [n for n in rules if n not in _COMMON]
        rng.shuffle(names)
        names += rng.sample(_COMMON, len(_COMMON))
        made = 0
        for name in names:
            pred = rules[name](gold, rng)
            if pred is not None and pred != gold and made < 2:
                cases.append((gold, _BOX % pred, True, name))
                made += 1
        changed = _changed(gold, rng)
        if changed is not None and changed != gold:
            cases.append((gold, _BOX % changed, False, "changed"))
    return cases


def labelled_sets() -> dict[str, list[Case]]:
    """Every labelled set, by name: the suite, the adversarial and public modules, and the
    dressed MATH-500 golds when the data is there."""
    from math_suite import CASES as SUITE

    sets: dict[str, list[Case]] = {
        "suite": [
            (
                c.gold,
                c.pred,
                c.equivalent,
                "traps" if c.category.startswith("trap_") else c.category,
            )
            for c in SUITE
        ]
    }
    for pattern in ("adversarial_*_cases.py", "public_*_cases.py"):
        for path in sorted(TESTS.glob(pattern)):
            module = importlib.import_module(path.stem)
            sets[path.stem] = [(g, c, reward == 1.0, k) for g, c, reward, k in module.CASES]
    dressed = dressed_math500(_SEED)
    if dressed:
        sets["math500_dressed"] = dressed
    return sets


_SEED = 0


def score(cases: list[Case], timeout: float) -> tuple[dict, list[str], float, float]:
    stats: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    misses: list[str] = []
    t_ours = t_mv = 0.0
    for gold, completion, label, group in cases:
        t = time.perf_counter()
        ours = math_check(completion, gold, timeout=timeout).correct
        t_ours += time.perf_counter() - t
        t = time.perf_counter()
        theirs = math_verify_judge(gold, completion)
        t_mv += time.perf_counter() - t
        for name, verdict in (("ours", ours), ("math-verify", theirs)):
            for g in (group, "ALL"):
                stats[name][g][0] += verdict == label
                stats[name][g][1] += 1
            if verdict and not label:
                stats[name]["false positives"][0] += 1
        if ours != label or theirs != label:
            misses.append(
                f"  [{group}] gold={gold[:50]!r} completion={completion[:70]!r} "
                f"label={label} ours={ours} math-verify={theirs}"
            )
    return stats, misses, t_ours, t_mv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=5.0, help="our per-call deadline (s)")
    parser.add_argument("--quiet", action="store_true", help="do not list disagreements")
    parser.add_argument("--sets", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the dressed MATH-500 set")
    args = parser.parse_args()
    global _SEED
    _SEED = args.seed
    wanted = set(filter(None, args.sets.split(",")))

    logging.disable(logging.CRITICAL)  # math-verify logs every timeout / parse failure
    summary = []
    for name, cases in labelled_sets().items():
        if wanted and name not in wanted:
            continue
        stats, misses, t_ours, t_mv = score(cases, args.timeout)
        negatives = sum(not label for _, _, label, _ in cases)
        print(f"\n== {name}: {len(cases)} cases ({negatives} not equivalent)")
        print(f"{'group':<20}{'ours':>12}{'math-verify':>14}")
        groups = sorted(g for g in stats["ours"] if g != "ALL" and "false" not in g)
        for g in [*groups, "ALL"]:
            o, m = stats["ours"][g], stats["math-verify"][g]
            print(f"{g:<20}{o[0]:>7}/{o[1]:<4}{m[0]:>9}/{m[1]:<4}")
        for who in ("ours", "math-verify"):
            ok, n = stats[who]["ALL"]
            fp = stats[who]["false positives"][0]
            print(f"{who:<12} accuracy {ok / n:.1%}  false positives {fp}")
            summary.append((name, who, ok, n, fp))
        print(f"time: ours {t_ours:.2f} s, math-verify {t_mv:.2f} s (one pass)")
        if misses and not args.quiet:
            print("disagreements with the label:")
            print("\n".join(misses))
    print("\n== summary (accuracy, false positives)")
    for name, who, ok, n, fp in summary:
        print(f"{name:<28}{who:<12}{ok:>5}/{n:<5}{ok / n:>7.1%}   FP {fp}")


if __name__ == "__main__":
    main()
