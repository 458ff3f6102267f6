"""Verifications per second: ``verifiers.math.math_check`` vs math-verify's parse + verify.

Same inputs for both, one call at a time, in this process (our symbolic path uses one worker
process at a time; it is started and has imported sympy before timing, exactly as
math-verify's modules are imported before timing). math-verify's and latex2sympy's
``functools.lru_cache`` caches are cleared before each timed pass, and no input repeats, so
neither side is served from a cache.

Workloads (from $RLVR_DATA_DIR, default ../shared/data):

- gsm8k: GSM8K gold solutions (train, then test; the first 2,000 unless ``--gsm8k-limit``
  says otherwise, 0 = all 8,792) as the completion, scored against its own answer and against
  the next row's answer.
- math500: each MATH-500 answer written as a completion ("... the answer is $\\boxed{A}$.")
  scored against its own answer and against the next row's answer.

Wall time decides the speed-up. On a machine shared with other work, wall time swings with the
load (and math-verify slows more than we do), so CPU seconds are printed too: this process's,
plus those of its children (our symbolic worker), read from /proc and ``getrusage``. Their
ratio is the steadier figure on a loaded machine.

Also printed: agreement with math-verify (on every input where math-verify's verdict is
right: own answer -> equivalent; a different row's answer -> not equivalent unless the two
answers are the same string) and the per-call overhead of ``run_with_deadline``.

    python benchmarks/verify_speed.py                    # all of MATH-500, 2,000 GSM8K rows
    python benchmarks/verify_speed.py --gsm8k-limit 0    # every row of both
    python benchmarks/verify_speed.py --limit 500        # at most 500 rows of each
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import logging
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verifiers.deadline import run_with_deadline, warm_up  # noqa: E402
from verifiers.math import math_check  # noqa: E402


def data_dir() -> Path:
    return Path(os.environ.get("RLVR_DATA_DIR") or ROOT.parent / "shared" / "data")


def gsm8k_rows(limit: int | None, gsm8k_limit: int | None) -> int | None:
    """How many GSM8K rows to score: ``--limit`` caps every dataset, ``--gsm8k-limit`` (0 or
    None: no cap of its own) GSM8K alone; ``None`` = all rows."""
    caps = [n for n in (limit, gsm8k_limit) if n]
    return min(caps) if caps else None


def gsm8k_inputs(limit: int | None) -> list[tuple[str, str, bool | None]]:
    from verifiers.gsm8k import parse_gsm8k_answer

    rows = []
    for split in ("train", "test"):
        with open(data_dir() / "gsm8k" / f"{split}.jsonl", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    rows = rows[:limit] if limit else rows
    golds = [parse_gsm8k_answer(r["answer"]) for r in rows]
    out = []
    for i, row in enumerate(rows):
        j = (i + 1) % len(rows)
        out.append((row["answer"], golds[i], True))
        out.append((row["answer"], golds[j], golds[i] == golds[j]))
    return out


def math500_inputs(limit: int | None) -> list[tuple[str, str, bool | None]]:
    with open(data_dir() / "math500" / "test.jsonl", encoding="utf-8") as f:
        answers = [json.loads(line)["answer"] for line in f]
    answers = answers[:limit] if limit else answers
    out = []
    for i, ans in enumerate(answers):
        completion = f"Working through the algebra, the answer is $\\boxed{{{ans}}}$."
        j = (i + 1) % len(answers)
        out.append((completion, ans, True))
        # A different answer: equivalent only if it is literally the same (else label unknown).
        out.append((completion, answers[j], ans == answers[j]))
    return out


def clear_caches() -> None:
    import latex2sympy2_extended
    import math_verify

    for mod_name, mod in list(sys.modules.items()):
        if mod is None or not mod_name.startswith(
            (math_verify.__name__, latex2sympy2_extended.__name__)
        ):
            continue
        for obj in list(vars(mod).values()):
            if isinstance(obj, functools._lru_cache_wrapper):
                obj.cache_clear()
    gc.collect()


def math_verify_judge(completion: str, gold: str) -> bool:
    from math_verify import parse, verify

    return bool(verify(parse(gold), parse(completion)))


def ours_judge(completion: str, gold: str) -> bool:
    return math_check(completion, gold).correct


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its children, live (the symbolic worker:
    utime + stime from /proc, Linux only) or reaped (``getrusage``)."""
    total = time.process_time()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total += usage.ru_utime + usage.ru_stime
    me, tick = os.getpid(), os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # after the "(name)": state, ppid, ... utime and stime are fields 14 and 15
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 12 and int(fields[1]) == me:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def timed(judge, inputs, clear: bool = True) -> tuple[float, float, list[bool]]:
    """(wall seconds, CPU seconds, verdicts)."""
    if clear:
        clear_caches()
    cpu = cpu_seconds()
    start = time.perf_counter()
    verdicts = [judge(c, g) for c, g, _ in inputs]
    wall = time.perf_counter() - start
    return wall, cpu_seconds() - cpu, verdicts


def report(name: str, inputs) -> None:
    # Each half timed on its own: a wrong answer costs us less than a right one (the reading
    # stops once the committed answer compares unequal), so the mix decides the total.
    # The caches are cleared once per side, before its first half: the second half reads the
    # same completions, and each side keeps what it learnt of them (math-verify its lru_caches,
    # ours its worker's), as in one pass over the inputs in their order.
    own, other = inputs[0::2], inputs[1::2]
    mv_a, mv_b = timed(math_verify_judge, own), timed(math_verify_judge, other, clear=False)
    ours_a, ours_b = timed(ours_judge, own), timed(ours_judge, other, clear=False)
    halves = {"own gold": (mv_a, ours_a), "next row's gold": (mv_b, ours_b)}
    t_mv, cpu_mv = mv_a[0] + mv_b[0], mv_a[1] + mv_b[1]
    t_ours, cpu_ours = ours_a[0] + ours_b[0], ours_a[1] + ours_b[1]
    mv = [v for pair in zip(mv_a[2], mv_b[2]) for v in pair]
    ours = [v for pair in zip(ours_a[2], ours_b[2]) for v in pair]
    n = len(inputs)
    mv_right = [i for i, (_, _, label) in enumerate(inputs) if mv[i] == label]
    differ = [i for i in mv_right if ours[i] != mv[i]]
    ours_acc = sum(ours[i] == inputs[i][2] for i in range(n)) / n
    mv_acc = len(mv_right) / n
    print(f"[{name}] {n} verifications")
    print(f"  math-verify parse+verify: {n / t_mv:10.1f} /s   ({t_mv:.2f} s)")
    print(f"  verifiers.math_check   : {n / t_ours:10.1f} /s   ({t_ours:.2f} s)")
    print(f"  speed-up: {t_mv / t_ours:.1f}x")
    for label, ((t_m, _, _), (t_o, _, _)) in halves.items():
        print(f"    against its {label:15s}: {t_m / t_o:.1f}x  "
              f"({t_o / max(1, len(own)) * 1e6:.0f} us per check, math-verify {t_m / max(1, len(own)) * 1e6:.0f} us)")
    print(
        f"  CPU seconds: math-verify {cpu_mv:.2f}, ours {cpu_ours:.2f} (with the worker's): "
        f"{cpu_mv / max(cpu_ours, 1e-9):.1f}x"
    )
    print(
        f"  verdicts agree with the label: ours {ours_acc:.1%}, math-verify {mv_acc:.1%}; "
        f"where math-verify is right ({len(mv_right)}), ours differs on {len(differ)}"
    )
    for i in differ[:10]:
        c, g, label = inputs[i]
        print(f"    differs: gold={g!r} pred={c[-60:]!r} label={label} ours={ours[i]}")


def deadline_overhead(calls: int = 2000) -> None:
    run_with_deadline(abs, -1, timeout=30)  # the worker is started
    start = time.perf_counter()
    for _ in range(calls):
        run_with_deadline(abs, -1, timeout=30)
    per_call = (time.perf_counter() - start) / calls
    start = time.perf_counter()
    for _ in range(calls):
        abs(-1)
    direct = (time.perf_counter() - start) / calls
    print(
        f"[deadline] run_with_deadline(abs, -1): {per_call * 1e6:.0f} us/call "
        f"(direct call {direct * 1e6:.2f} us): the round trip to a persistent worker"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="verifiers.math vs math-verify throughput")
    parser.add_argument("--limit", type=int, default=None, help="rows per dataset (default all)")
    parser.add_argument(
        "--gsm8k-limit",
        type=int,
        default=2000,
        help="GSM8K rows (math-verify is slow: ~4 k rows take minutes); 0 = all 8,792",
    )
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    import math_verify  # noqa: F401 - imported before timing, like our worker's sympy

    warm_up(1, "verifiers.latex_equiv")
    deadline_overhead()
    report("gsm8k integers", gsm8k_inputs(gsm8k_rows(args.limit, args.gsm8k_limit)))
    report("math500 latex", math500_inputs(args.limit))


if __name__ == "__main__":
    main()
