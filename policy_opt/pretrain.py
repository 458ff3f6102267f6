"""``python -m policy_opt.pretrain``: build the offline default model by its warm-start recipe
(:mod:`policy_opt.models.warm_start`).

Example (shell)::

    python -m policy_opt.pretrain --out runs/default-model            # the shipped recipe
    python -m policy_opt.pretrain --out /tmp/m --steps 20 --eval-rows 50
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence

import policy_opt.models.warm_start as warm_start


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; see ``--help``."""
    p = argparse.ArgumentParser(
        prog="python -m policy_opt.pretrain",
        description="Build the offline default model: a ~2.4M-parameter byte-level Llama "
        "warm-started by supervised training on generated tasks (loss on completions).",
    )
    default = warm_start.Recipe()
    p.add_argument(
        "--out",
        required=True,
        help="directory to write the model to: a new or empty directory, or an earlier build "
        "(replaced)",
    )
    p.add_argument("--steps", type=int, default=default.steps, help="optimiser steps")
    p.add_argument("--batch-size", type=int, default=default.batch_size)
    p.add_argument("--lr", type=float, default=default.lr, help="peak AdamW learning rate")
    p.add_argument("--seed", type=int, default=default.seed)
    p.add_argument(
        "--task",
        action="append",
        metavar="NAME[:WEIGHT]",
        help="a task to train on, repeatable (default: arithmetic)",
    )
    p.add_argument(
        "--eval-rows",
        type=int,
        default=default.eval_rows,
        help="test rows for the final greedy accuracy (0 skips it)",
    )
    p.add_argument("--threads", type=int, default=default.threads)
    args = p.parse_args(argv)
    try:
        task_specs = default.tasks
        if args.task:
            task_specs = tuple(_parse_task(s) for s in args.task)
        recipe = warm_start.Recipe(
            tasks=task_specs,
            steps=args.steps,
            batch_size=args.batch_size,
            lr=args.lr,
            seed=args.seed,
            eval_rows=args.eval_rows,
            threads=args.threads,
        )
        for name, _, _ in recipe.tasks:
            warm_start._get_task(name, {})
        warm_start._checked_out_dir(args.out)
    except (ValueError, KeyError) as err:
        p.error(str(err).strip("'\""))
    summary = warm_start.build(recipe, args.out)
    print(
        json.dumps(
            {
                k: summary[k]
                for k in ("recipe_hash", "params", "final_loss", "greedy_accuracy", "total_seconds")
            }
        )
    )
    return 0


def _parse_task(spec: str) -> tuple[str, float, tuple]:
    name, _, weight = spec.partition(":")
    try:
        w = float(weight) if weight else 1.0
    except ValueError:
        raise ValueError(f"--task {spec!r}: weight must be a number") from None
    if not (math.isfinite(w) and w > 0):
        raise ValueError(f"--task {spec!r}: weight must be a finite number > 0")
    if not name:
        raise ValueError(f"--task {spec!r}: missing task name")
    return (name, w, ())


if __name__ == "__main__":
    raise SystemExit(main())
