"""Candidates per second through the sandbox pool vs a fork-per-candidate baseline.

The baseline is what many harnesses do: ``subprocess.run([python, "-c", program + tests])``
per candidate, from a thread pool of the same size, with no isolation at all; a second,
leaner baseline starts ``python -I -S`` (no site-packages scan) the same way. Both run in
the same process, on the same machine, one after the other, so the ratio is meaningful even
on a busy box (the absolute numbers are not).

    python benchmarks/sandbox.py --n 200 --workers 2

Workloads: a trivial passing program (``def f(): return 1``, one call test) and a
HumanEval solution (HumanEval/0's canonical solution with its ``check``, 7 asserts).

``--channels`` measures instead what one candidate can tell another through shared state
the sandbox cannot take away (README, "The code sandbox"): a sender candidate encodes
seeded random bits, a receiver decodes them, and the capacity is
``bits * (1 - H(error rate)) / seconds``, counting the seconds both spend inside their
calls (sandbox overhead excluded, so the figure is an upper bound on what a policy gets):

* ``page cache``: the sender reads one byte of the pages of its 1 bits in stdlib files, the
  receiver times one read per page (the host evicts the files first, as files nobody
  imports would be);
* ``dentry cache``: the sender looks up missing names for its 1 bits, the receiver times
  the same lookups;
* ``cpu contention``: two candidates in two sandboxes at once; in each 20 ms slot the
  sender spins for a 1 and sleeps for a 0, the receiver counts its own loop iterations.

    python benchmarks/sandbox.py --channels
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verifiers.code import (  # noqa: E402
    Limits,
    SandboxPool,
    humaneval_program,
    humaneval_tests,
    run_tests,
    run_tests_batch,
)


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


CACHE_SENDER = """
import os, time
def f():
    start = time.perf_counter()
    for (path, offset), bit in zip(SLOTS, BITS):
        if bit:
            fd = os.open(path, os.O_RDONLY)
            os.pread(fd, 1, offset)
            os.close(fd)
    return time.perf_counter() - start
"""
CACHE_RECEIVER = """
import os, time
def f():
    start, times = time.perf_counter(), []
    for path, offset in SLOTS:
        fd = os.open(path, os.O_RDONLY)
        t = time.perf_counter_ns()
        os.pread(fd, 1, offset)
        times.append(time.perf_counter_ns() - t)
        os.close(fd)
    return [time.perf_counter() - start, times]
"""
DENTRY_SENDER = """
import os, time
def f():
    start = time.perf_counter()
    for i, bit in enumerate(BITS):
        if bit:
            os.path.exists(f"{FOLDER}/{TAG}{i}")
    return time.perf_counter() - start
"""
DENTRY_RECEIVER = """
import os, time
def f():
    start, times = time.perf_counter(), []
    for i in range(len(BITS)):
        t = time.perf_counter_ns()
        os.path.exists(f"{FOLDER}/{TAG}{i}")
        times.append(time.perf_counter_ns() - t)
    return [time.perf_counter() - start, times]
"""
CPU_SENDER = """
import time
def f():
    for i, bit in enumerate(BITS):
        end = T0 + (i + 1) * SLOT
        while time.time() < T0 + i * SLOT:
            time.sleep(0.0005)
        if bit:
            while time.time() < end:
                pass
    return len(BITS) * SLOT
"""
CPU_RECEIVER = """
import time
def f():
    counts = []
    for i in range(len(BITS)):
        while time.time() < T0 + i * SLOT:
            time.sleep(0.0005)
        n, end = 0, T0 + (i + 1) * SLOT
        while time.time() < end:
            n += 1
        counts.append(n)
    return [len(BITS) * SLOT, counts]
"""
_RETURN = [{"entry_point": "f", "args": [], "expected": None}]


def _value(result) -> object:
    # the benchmark reads what its own programs returned: the full value, not an excerpt
    import ast

    test = result.tests[0]
    if test.got is None or test.got.endswith("..."):
        raise SystemExit(f"no usable value: {test.error} {test.message} {test.got}")
    return ast.literal_eval(test.got)


def _capacity(name: str, bits: list[int], times: list[float], seconds: float, small_is_one: bool):
    """Decode by the median (about half the bits are 1: a fast read, a slowed loop), report
    the capacity. At chance (error near 50%) the figure is sampling noise, not a channel."""
    cut = sorted(times)[len(times) // 2]
    read = [int((t < cut) == small_is_one) for t in times]
    p = sum(r != b for r, b in zip(read, bits)) / len(bits)
    h = 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))
    # decoding no better than chance (within 3 standard deviations) carries nothing
    chance = (0.5 - p) * 2 * math.sqrt(len(bits)) < 3
    cap = 0.0 if chance else len(bits) * (1 - h) / seconds
    print(f"{name:<15} {len(bits):>5} bits  error {p:6.1%}  {seconds * 1e3:8.1f} ms  "
          f"{cap:>12,.0f} bits/s" + (" (chance)" if chance else ""))  # fmt: skip


def channels(seed: int = 0) -> None:
    """Measure the three channels above (each one run; the figures vary with load)."""
    import verifiers.code.run as run_mod

    run_mod._excerpt = lambda value, n=0: repr(value)  # whole values back (our own programs)
    rng = random.Random(seed)
    stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    files = ("_pydecimal.py", "turtle.py", "pydoc.py", "tarfile.py", "doctest.py")
    slots = [(os.path.join(stdlib, n), off) for n in files
             for off in range(0, os.path.getsize(os.path.join(stdlib, n)), 4 << 12)]  # fmt: skip
    one = SandboxPool(workers=1)  # sender, then receiver, in one sandbox
    pool = SandboxPool(workers=2)  # both at once, in two sandboxes
    try:
        probe = {"mode": "stdin", "code": "", "stdin": "", "timeout": 5.0,
                 "limits": Limits().as_dict()}  # fmt: skip
        print(f"page cache: {one.run(probe).get('isolation', {}).get('page_cache')}")
        bits = [rng.randrange(2) for _ in slots]
        for path in {p for p, _ in slots}:
            fd = os.open(path, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
        head = f"SLOTS = {slots!r}\nBITS = {bits!r}\n"
        sent = _value(run_tests(head + CACHE_SENDER, _RETURN, timeout=30.0, pool=one))
        took, times = _value(run_tests(head + CACHE_RECEIVER, _RETURN, timeout=30.0, pool=one))
        _capacity("page cache", bits, times, sent + took, small_is_one=True)

        bits = [rng.randrange(2) for _ in range(1024)]
        head = f"FOLDER = {stdlib!r}\nTAG = 'bench{time.time_ns()}-'\nBITS = {bits!r}\n"
        sent = _value(run_tests(head + DENTRY_SENDER, _RETURN, timeout=30.0, pool=one))
        took, times = _value(run_tests(head + DENTRY_RECEIVER, _RETURN, timeout=30.0, pool=one))
        _capacity("dentry cache", bits, times, sent + took, small_is_one=True)

        bits = [rng.randrange(2) for _ in range(100)]
        head = f"T0 = {time.time() + 3.0!r}\nSLOT = 0.02\nBITS = {bits!r}\n"
        with ThreadPoolExecutor(max_workers=2) as ex:
            send = ex.submit(run_tests, head + CPU_SENDER, _RETURN, timeout=30.0, pool=pool)
            receive = ex.submit(run_tests, head + CPU_RECEIVER, _RETURN, timeout=30.0, pool=pool)
            took, counts = _value(receive.result())
            send.result()
        _capacity("cpu contention", bits, counts, took, small_is_one=True)
        print(f"cpus={os.cpu_count()} load={os.getloadavg()[0]:.1f}")
    finally:
        one.close()
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200, help="candidates per workload")
    parser.add_argument("--workers", type=int, default=2, help="pool size (and baseline threads)")
    parser.add_argument("--channels", action="store_true", help="measure covert channels")
    args = parser.parse_args()
    if args.channels:
        channels()
        return

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
