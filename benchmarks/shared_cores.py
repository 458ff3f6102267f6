"""A training step's time alone and beside a second trainer on the same cores, with the old
default thread count (one per core) and the new one (``--threads 0``: the free cores).

Each measurement runs ``python -m policy_opt.train`` on the default model and the arithmetic
env and reads ``time_step`` from its ``metrics.jsonl`` (the median of the steps after the
first). "beside" starts a second, long trainer with the same thread setting first, waits
until it has finished a step (so it is busy), then measures the first trainer while it runs.

    python benchmarks/shared_cores.py --steps 3        # a few minutes on 2 cores

The numbers are wall-clock times on whatever else the machine runs: on a shared machine they
are noisy (repeat them, and read the load average printed with each).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHAPE = ["--env", "arithmetic", "--prompts-per-step", "8", "--group-size", "4",
         "--max-new-tokens", "16", "--eval-every", "0", "--save-every", "0", "--eval-prompts",
         "4", "--eval-k", "1", "--mu", "1", "--env-workers", "1"]


def _train(out: Path, steps: int, threads: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "policy_opt.train", "--out", str(out),
                             "--max-steps", str(steps), "--threads", str(threads), *SHAPE],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)


def _step_times(out: Path) -> list[float]:
    path = out / "metrics.jsonl"
    if not path.is_file():
        return []
    recs = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return [r["time_step"] for r in recs if r.get("kind") == "train"]


def measure(threads: int, steps: int, beside: bool, tmp: Path) -> tuple[float, float]:
    """(median step seconds after the first, the load average when it started)."""
    other = None
    if beside:
        other = _train(tmp / f"other-{threads}", 100_000, threads)
        deadline = time.monotonic() + 600
        while not _step_times(tmp / f"other-{threads}") and time.monotonic() < deadline:
            if other.poll() is not None:
                raise RuntimeError(f"the second trainer stopped: {other.stderr.read()[-2000:]}")
            time.sleep(0.5)
    load = os.getloadavg()[0]
    out = tmp / f"run-{threads}-{'beside' if beside else 'alone'}"
    try:
        proc = _train(out, steps + 1, threads)
        _, err = proc.communicate(timeout=3600)
        if proc.returncode:
            raise RuntimeError(f"the trainer failed ({proc.returncode}): {err[-2000:]}")
    finally:
        if other is not None:
            other.terminate()
            other.wait(timeout=120)
    return statistics.median(_step_times(out)[1:]), load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=3, help="timed steps per measurement")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{cores} usable cores; settings: {' '.join(SHAPE)}")
    print(f"{'threads':>24} {'alone s/step':>13} {'beside s/step':>14} {'slowdown':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for label, threads in ((f"before: {cores} (one/core)", cores), ("after: 0 (free cores)", 0)):
            alone, load_a = measure(threads, args.steps, False, Path(tmp))
            beside, load_b = measure(threads, args.steps, True, Path(tmp))
            print(f"{label:>24} {alone:13.2f} {beside:14.2f} {beside / alone:8.1f}x"
                  f"   (load average at start: {load_a:.1f} alone, {load_b:.1f} beside)",
                  flush=True)


if __name__ == "__main__":
    main()
