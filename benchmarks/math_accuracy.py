"""Accuracy of ``verifiers.math`` against math-verify on the labelled suite in tests/.

Both graders see the same (gold, prediction) pairs unchanged; math-verify is called the way
its README shows (``verify(parse(gold), parse(prediction))``, the gold wrapped in ``$...$``
so that it is read as LaTeX). Prints accuracy per category group, false positives on the
``trap_*`` cases, and every case on which either grader disagrees with the label.

    python benchmarks/math_accuracy.py
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from math_suite import CASES  # noqa: E402

from verifiers.math import math_check  # noqa: E402


def math_verify_judge(gold: str, pred: str) -> bool:
    from math_verify import parse, verify

    try:
        return bool(verify(parse(f"${gold}$"), parse(pred)))
    except Exception:  # noqa: BLE001 - a crash counts as "not equivalent"
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=5.0, help="our per-call deadline (s)")
    parser.add_argument("--quiet", action="store_true", help="do not list disagreements")
    args = parser.parse_args()

    import logging

    logging.disable(logging.CRITICAL)  # math-verify logs every timeout / parse failure
    stats: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    misses: list[str] = []
    t_ours = t_mv = 0.0
    for case in CASES:
        group = "traps" if case.category.startswith("trap_") else case.category
        t = time.perf_counter()
        ours = math_check(case.pred, case.gold, timeout=args.timeout).correct
        t_ours += time.perf_counter() - t
        t = time.perf_counter()
        theirs = math_verify_judge(case.gold, case.pred)
        t_mv += time.perf_counter() - t
        for name, verdict in (("ours", ours), ("math-verify", theirs)):
            stats[name][group][0] += verdict == case.equivalent
            stats[name][group][1] += 1
            stats[name]["ALL"][0] += verdict == case.equivalent
            stats[name]["ALL"][1] += 1
            if verdict and not case.equivalent:
                stats[name]["false positives"][0] += 1
                if case.category.startswith("trap_"):
                    stats[name]["false positives on traps"][0] += 1
        if ours != case.equivalent or theirs != case.equivalent:
            misses.append(
                f"  [{case.category}] gold={case.gold!r} pred={case.pred[:60]!r} "
                f"label={case.equivalent} ours={ours} math-verify={theirs}"
            )
    groups = sorted(g for g in stats["ours"] if g not in ("ALL",) and "false" not in g)
    print(f"labelled suite: {len(CASES)} cases ({stats['ours']['traps'][1]} traps)")
    print(f"{'group':<16}{'ours':>12}{'math-verify':>14}")
    for g in [*groups, "ALL"]:
        o, m = stats["ours"][g], stats["math-verify"][g]
        print(f"{g:<16}{o[0]:>7}/{o[1]:<4}{m[0]:>9}/{m[1]:<4}")
    for name in ("ours", "math-verify"):
        ok, n = stats[name]["ALL"]
        print(
            f"{name:<12} accuracy {ok / n:.1%}  false positives {stats[name]['false positives'][0]}"
            f"  (on traps: {stats[name]['false positives on traps'][0]})"
        )
    print(f"time: ours {t_ours:.2f} s, math-verify {t_mv:.2f} s (whole suite, one pass)")
    if misses and not args.quiet:
        print("disagreements with the label:")
        print("\n".join(misses))


if __name__ == "__main__":
    main()
