"""How long ``python -m tasks probe gsm8k -n 50`` takes, against the same probes scored
in-process with ``task.score`` (no deadline, no worker: the least any probe run could cost).

Three figures, same rows (50 sampled from the test split with seed 0), same machine, same run:

- baseline: every probe scored by ``task.score`` in this process;
- probe: ``verifiers.probes.run`` (each call in a killable deadline worker, warm-up included);
- cli: the whole command, ``python -m tasks probe TASK``, in a fresh interpreter (imports, data
  loading, report; it must run: a usage error is not a time).

The bar (issue 26): the command under a minute on 2 cores.

    RLVR_DATA_DIR=../shared/data python benchmarks/probe_speed.py [-n 50] [--task gsm8k]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", default="gsm8k")
    parser.add_argument("-n", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import tasks
    from tasks.probe import TaskScorer, _question
    from verifiers.probes import ProbeRow, generate, run
    from verifiers.probes.command import sample_rows as _sample

    task = tasks.get(args.task)
    split = "test" if "test" in task.splits else task.splits[0]
    rows = _sample(task.rows(split, seed=args.seed, limit=10_000), args.n, args.seed)
    probe_rows = [
        ProbeRow(r.id, r.answer, task.reference_completion(r), _question(r.prompt), r.info)
        for r in rows
    ]
    kind = "code" if task.runs_code else "text"
    jobs = []
    for i, row in enumerate(probe_rows):
        probes, _ = generate(row, kind, first=i == 0)
        jobs += [(row, p) for p in probes]

    start = time.perf_counter()
    for row, p in jobs:
        task.rubric.score(p.completion, row.gold, **row.info)
    baseline = time.perf_counter() - start

    start = time.perf_counter()
    results, _ = run(TaskScorer(args.task), probe_rows, kind, timeout=task.rubric.timeout)
    probed = time.perf_counter() - start
    assert len(results) == len(jobs)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "tasks", "probe", args.task, "-n", str(args.n),
               "--seed", str(args.seed)]  # fmt: skip
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    cli = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: the probe found something; it still ran
        sys.exit(f"{' '.join(command[1:])} failed (exit {done.returncode}):\n{done.stderr}")

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"task {args.task}/{split}: {len(probe_rows)} rows, {len(jobs)} probes, "
          f"{os.cpu_count()} CPUs, load average {load:.1f}")  # fmt: skip
    print(f"baseline (task.score in-process): {baseline:7.2f} s")
    print(f"probe (deadline workers):         {probed:7.2f} s  ({probed / baseline:.2f}x baseline)")
    print(f"cli (python -m tasks probe):      {cli:7.2f} s  (bar: under 60 s)")


if __name__ == "__main__":
    main()
