"""Candidates per second through the sandbox pool vs a fork-per-candidate baseline.

The baseline is what many harnesses do: ``subprocess.run([python, "-c", program + tests])``
per candidate, from a thread pool of the same size, with no isolation at all; a second,
leaner baseline starts ``python -I -S`` (no site-packages scan) the same way. Both run in
the same process, on the same machine, one after the other, so the ratio is meaningful even
on a busy box (the absolute numbers are not).

    python benchmarks/sandbox.py --n 200 --workers 2

Workloads: a trivial passing program (``def f(): return 1``, one call test) and a
HumanEval solution (HumanEval/0's canonical solution with its ``check``, 7 asserts).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verifiers.code import SandboxPool, humaneval_program, humaneval_tests, run_tests_batch  # noqa: E402


def _humaneval_row(task: str) -> dict:
    root = Path(
        os.environ.get("RLVR_DATA_DIR") or Path(__file__).resolve().parents[2] / "shared/data"
    )
    with open(root / "humaneval" / "HumanEval.jsonl", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["task_id"] == task:
                return row
    raise SystemExit(f"{task} not found under {root}")


def _baseline(scripts: list[str], workers: int, flags: tuple[str, ...] = ()) -> tuple[float, int]:
    def one(script: str) -> bool:
        cmd = [sys.executable, *flags, "-c", script]
        proc = subprocess.run(cmd, capture_output=True, timeout=60)
        return proc.returncode == 0

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as ex:
        ok = sum(ex.map(one, scripts))
    return len(scripts) / (time.perf_counter() - start), ok


def _sandbox(pool: SandboxPool, codes: list[str], tests: list) -> tuple[float, int]:
    start = time.perf_counter()
    results = run_tests_batch(codes, tests, pool=pool)
    return len(codes) / (time.perf_counter() - start), sum(r.all_passed for r in results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200, help="candidates per workload")
    parser.add_argument("--workers", type=int, default=2, help="pool size (and baseline threads)")
    args = parser.parse_args()

    row = _humaneval_row("HumanEval/0")
    he_code = humaneval_program(row, row["canonical_solution"])
    workloads = {
        "trivial": (
            "def f():\n    return 1\n",
            [{"entry_point": "f", "args": [], "expected": 1}],
            "def f():\n    return 1\nassert f() == 1\n",
        ),
        "humaneval/0": (
            he_code,
            humaneval_tests(row),
            he_code + "\n" + row["test"] + f"\ncheck({row['entry_point']})\n",
        ),
    }
    pool = SandboxPool(workers=args.workers)
    try:
        _sandbox(pool, ["def f():\n    return 1\n"] * args.workers, workloads["trivial"][1])  # warm
        print(
            f"{'workload':<12} {'sandbox c/s':>12} {'python c/s':>11} {'ratio':>7}"
            f" {'python -I -S c/s':>17} {'ratio':>7}  passed (sandbox, python, -I -S)"
        )
        for name, (code, tests, script) in workloads.items():
            sb_rate, sb_ok = _sandbox(pool, [code] * args.n, tests)
            bl_rate, bl_ok = _baseline([script] * args.n, args.workers)
            lean_rate, lean_ok = _baseline([script] * args.n, args.workers, ("-I", "-S"))
            print(
                f"{name:<12} {sb_rate:>12.1f} {bl_rate:>11.1f} {sb_rate / bl_rate:>6.2f}x"
                f" {lean_rate:>17.1f} {sb_rate / lean_rate:>6.2f}x"
                f"  {sb_ok}, {bl_ok}, {lean_ok} of {args.n}"
            )
        print(f"isolation: {json.dumps(pool._all[0].isolation)}")
        print(f"cpus={os.cpu_count()} load={os.getloadavg()[0]:.1f} workers={args.workers}")
    finally:
        pool.close()


if __name__ == "__main__":
    main()
