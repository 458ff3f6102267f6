"""Does a multi-turn env without a tool learn? Guess-the-number from the default model.

Issue #34 asks for one multi-turn env without a tool learning, with its curve. The env is
``envs.guess_number`` on a small range (``SmallGuessEnv``: 1..8, 4 guesses, which binary
search always needs at most), so that sampled episodes find the secret often enough for
groups to hold mixed rewards. The default model (warm-started on arithmetic only) has never
seen the game: greedily it guesses ``1`` over and over (it finds the secret when the secret
is 1). Learning here means using the env's ``Higher.``/``Lower.`` replies: a policy that
ignores them cannot beat 4 guesses out of 8 numbers (50%).

Runs ``python -m policy_opt.compare`` (same model, seed and budget per algorithm) with a
held-out greedy evaluation every ``--eval-every`` steps, and prints each algorithm's
accuracy at the start and the end. The curves are compare's ``compare.png``::

    python benchmarks/guess_learning.py --minutes 10 --algos gspo --out runs/guess_learning
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the trainer imports this module by name (--env below)
    sys.path.insert(0, str(ROOT))

from envs.guess_number import GuessNumberEnv  # noqa: E402

ENV = "benchmarks.guess_learning:SmallGuessEnv"


class SmallGuessEnv(GuessNumberEnv):
    """``GuessNumberEnv`` on 1..8 with 4 guesses (binary search's worst case)."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("low", 1)
        kwargs.setdefault("high", 8)
        kwargs.setdefault("max_turns", 4)
        super().__init__(**kwargs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=10.0, help="training budget per algorithm")
    p.add_argument("--algos", default="gspo")
    p.add_argument("--out", default="runs/guess_learning")
    p.add_argument("--eval-prompts", type=int, default=128)
    p.add_argument("--eval-every", type=int, default=10)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--no-train", action="store_true",
                   help="tabulate and plot the runs already under --out instead of training")
    args, rest = p.parse_known_args(argv)
    from policy_opt import compare
    from policy_opt.training.plots import read_metrics

    algos = [a.strip() for a in args.algos.split(",") if a.strip()]
    code = 0 if args.no_train else compare.main([
        "--env", ENV, "--algos", args.algos, "--minutes", str(args.minutes), "--out", args.out,
        "--max-turns", "4", "--max-new-tokens", "8", "--eval-prompts", str(args.eval_prompts),
        "--eval-k", "1", "--eval-every", str(args.eval_every), "--save-every", "0",
        "--threads", str(args.threads), *rest,
    ])
    if code:
        return code
    out = Path(args.out)
    missing = [str(out / a / "metrics.jsonl") for a in algos
               if not (out / a / "metrics.jsonl").is_file()]
    if missing:
        p.error(f"no run to tabulate: {', '.join(missing)} not found (train first, or name "
                "the --out folder that holds the runs)")
    runs = {a: read_metrics(out / a / "metrics.jsonl") for a in algos}
    lines = ["| algo | steps | train min | held-out greedy acc start | final | change (pts) |",
             "|---|---|---|---|---|---|"]
    print(f"\nheld-out greedy accuracy on {ENV.rpartition(':')[2]} (1..8, 4 guesses, "
          f"{args.eval_prompts} prompts):")
    for algo, records in runs.items():
        row = compare.summarise(algo, records)
        start, final = row["acc_start"], row["acc_final"]
        if start is None or final is None:
            print(f"  {algo:8s} no held-out evaluation was recorded")
            continue
        print(f"  {algo:8s} {100 * start:5.1f}% -> {100 * final:5.1f}%  "
              f"({100 * (final - start):+.1f} points, {row['steps']} steps, "
              f"{row['minutes']:.1f} min)")
        lines.append(f"| {algo} | {row['steps']} | {row['minutes']:.1f} | {100 * start:.1f}% "
                     f"| {100 * final:.1f}% | {100 * (final - start):+.1f} |")
    (out / "guess_learning.md").write_text("\n".join(lines) + "\n")
    compare.plot_compare(runs, out / "guess_learning.png",
                         "GuessNumber 1..8, 4 guesses, from the default model (no tool)")
    print(f"wrote {out / 'guess_learning.md'}, {out / 'guess_learning.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
