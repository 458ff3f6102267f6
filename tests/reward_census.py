"""Census of the reward properties: run every generator of ``reward_grammar.ALL_PROPERTIES`` and
group the violations into classes instead of stopping at the first one.

    python tests/reward_census.py                 # CI sizes, derandomised
    python tests/reward_census.py --scale 40 --seed 1 --only math

Prints, per property, how many cases ran and failed, the failures by grammar choice
(position, form, joiner, wrapper...) and the shortest failing completion of each class.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reward_grammar import ALL_PROPERTIES, Case, Property, violation  # noqa: E402
from reward_grammar_r14 import R14_PROPERTIES  # noqa: E402
from reward_grammar_r15 import R15_PROPERTIES  # noqa: E402
from reward_grammar_r16 import R16_PROPERTIES  # noqa: E402
from reward_grammar_r17 import R17_PROPERTIES  # noqa: E402
from reward_grammar_r18 import R18_PROPERTIES  # noqa: E402
from reward_grammar_r19 import R19_PROPERTIES  # noqa: E402
from reward_grammar_r20 import R20_PROPERTIES  # noqa: E402
from reward_grammar_r21 import R21_PROPERTIES  # noqa: E402


def census(prop: Property, examples: int, seed_value: int | None) -> dict[str, object]:
    failures: list[tuple[Case, str]] = []
    ran = 0

    @settings(max_examples=examples, derandomize=seed_value is None, database=None,
              deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(case=prop.strategy)
    def run(case: Case) -> None:
        nonlocal ran
        ran += 1
        problem = violation(prop, case)
        if problem is not None:
            failures.append((case, problem))

    if seed_value is not None:
        run = seed(seed_value)(run)
    run()
    return {"ran": ran, "failures": failures}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="x the CI example counts")
    ap.add_argument("--seed", type=int, default=None, help="random search with this seed")
    ap.add_argument("--only", default="", help="substring of the property names to run")
    ap.add_argument("--examples", type=int, default=3, help="shortest examples per class")
    args = ap.parse_args(argv)
    total_ran = total_failed = 0
    t0 = time.perf_counter()
    rounds = [*R14_PROPERTIES, *R15_PROPERTIES, *R16_PROPERTIES, *R17_PROPERTIES, *R18_PROPERTIES, *R19_PROPERTIES,
              *R20_PROPERTIES, *R21_PROPERTIES]
    for prop in [*ALL_PROPERTIES, *rounds]:
        if args.only not in prop.name:
            continue
        out = census(prop, max(1, int(prop.examples * args.scale)), args.seed)
        ran, failures = out["ran"], out["failures"]
        assert isinstance(ran, int) and isinstance(failures, list)
        total_ran += ran
        total_failed += len(failures)
        print(f"\n== {prop.name}: {len(failures)}/{ran} violate")
        if not failures:
            continue
        by_dim: dict[int, Counter[str]] = defaultdict(Counter)
        by_class: dict[str, list[Case]] = defaultdict(list)
        for case, _ in failures:
            for i, tag in enumerate(case.tags):
                by_dim[i][tag] += 1
            by_class[" | ".join(case.tags[:2])].append(case)
        for i in sorted(by_dim):
            top = ", ".join(f"{t} x{n}" for t, n in by_dim[i].most_common(8))
            print(f"  tag {i}: {top}")
        for cls, cases in sorted(by_class.items(), key=lambda kv: -len(kv[1])):
            cases.sort(key=lambda c: len(c.completion))
            shown = "; ".join(f"{c.completion!r} (gold {c.gold!r}"
                              + (f", numbers {list(c.numbers)}" if c.numbers else "") + ")"
                              for c in cases[: args.examples])
            print(f"  [{len(cases)}] {cls}: {shown}")
    dt = time.perf_counter() - t0
    print(f"\nTOTAL: {total_failed}/{total_ran} cases violate an invariant ({dt:.0f} s)")
    return 1 if total_failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
