"""Accuracy and false positives of ``verifiers.math`` against math-verify, per labelled set.

Sets, each reported on its own:

- ``suite``: ``tests/math_suite.py`` (categories ``trap_*`` are the wrong answers a lenient
  grader accepts), by category group.
- every ``tests/adversarial_*_cases.py`` (written as a policy would try them: near-misses and
  the right answers), by class.
- every ``tests/public_*_cases.py``: cases from other graders' test suites, not written by us
  (the module names its sources and licences), by source.

The last two kinds expose ``CASES: list[(gold, completion, expected_reward, class_name)]``; a
reward of 1.0 means equivalent. Both graders see the same (gold, completion) pairs unchanged;
math-verify is called the way its README shows (``verify(parse(gold), parse(completion))``,
the gold wrapped in ``$...$`` so that it is read as LaTeX; an exception counts as "not
equivalent"). A false positive is a "not equivalent" case judged equivalent.

    python benchmarks/math_accuracy.py            # every set, with each disagreement
    python benchmarks/math_accuracy.py --quiet    # the tables only
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
import time
from collections import defaultdict
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


def labelled_sets() -> dict[str, list[Case]]:
    """Every labelled set, by name: the suite, then the adversarial and public modules."""
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
    return sets


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
    args = parser.parse_args()

    logging.disable(logging.CRITICAL)  # math-verify logs every timeout / parse failure
    summary = []
    for name, cases in labelled_sets().items():
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
