"""Does it learn? GSPO, GRPO and Dr.GRPO from the default model on ``arithmetic``, the same
wall-clock budget each, held-out greedy accuracy before and after.

Runs ``python -m policy_opt.compare`` (same model, data, seed and budget per algorithm; the
learning rate decays to 0 over the budget by a cosine, ``--lr-schedule constant`` turns it off) and
prints each algorithm's change in held-out accuracy against the target of the issue "Proof
that it learns, and fast": GSPO +20 points within 15 minutes on 2 CPU cores. The PNG and the
Markdown table it writes are the ones in the README:

    python benchmarks/learning.py                     # 15 minutes per algorithm, ~50 minutes
    python benchmarks/learning.py --minutes 2         # a quick look
    python benchmarks/learning.py --out docs/learning # regenerate the README's figure/table

Held-out means the ``test`` split of ``arithmetic``, whose computations never occur in the
``train`` split the trainer (and the default model's warm start) draw from.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_POINTS = 20.0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=15.0, help="training budget per algorithm")
    p.add_argument("--algos", default="gspo,grpo,dr_grpo")
    p.add_argument("--out", default="runs/learning")
    p.add_argument("--eval-prompts", type=int, default=256)
    p.add_argument("--eval-every", type=int, default=50)
    p.add_argument("--threads", type=int, default=2)
    args, rest = p.parse_known_args(argv)
    sys.path.insert(0, str(ROOT))
    from policy_opt import compare
    from policy_opt.training.plots import read_metrics

    code = compare.main([
        "--env", "arithmetic", "--algos", args.algos, "--minutes", str(args.minutes),
        "--out", args.out, "--eval-prompts", str(args.eval_prompts),
        "--eval-every", str(args.eval_every), "--save-every", "0", "--threads", str(args.threads),
        # Decay over the budget: at a constant rate the greedy evaluations of one run swing by
        # several points late in training, and the final one is what counts.
        "--lr-schedule", "cosine",
        *rest,
    ])
    if code:
        return code
    print(f"\nheld-out greedy accuracy, {args.minutes:g} minutes of training per algorithm:")
    for algo in (a.strip() for a in args.algos.split(",") if a.strip()):
        row = compare.summarise(algo, read_metrics(Path(args.out) / algo / "metrics.jsonl"))
        start, final = row["acc_start"], row["acc_final"]
        if start is None or final is None:
            print(f"  {algo:8s} no held-out evaluation was recorded")
            continue
        points = 100 * (final - start)
        verdict = ""
        if algo == "gspo":
            met = points >= TARGET_POINTS and args.minutes <= 15
            verdict = (f"   target +{TARGET_POINTS:g} points within 15 min: "
                       f"{'met' if met else 'NOT met'}")
        sampled = ""
        if row["sampled_start"] is not None and row["sampled_final"] is not None:
            sampled = (f", sampled {100 * row['sampled_start']:.1f}% -> "
                       f"{100 * row['sampled_final']:.1f}%")
        print(f"  {algo:8s} {100 * start:5.1f}% -> {100 * final:5.1f}%  ({points:+.1f} points, "
              f"{row['steps']} steps{sampled}){verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
