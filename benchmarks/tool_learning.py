"""Does RL teach the policy to use a tool? Issue #34's part 4.

The task (``envs.long_calculator:LongAdditionEnv``): ``What is 71941+77468?`` on two 5-digit
operands, with a calculator tool. The model cannot do it in its head (greedy accuracy 0/64 on
the held-out prompts, at the warm start). The pipeline:

1. the copy base (``policy_opt.models.copy_base``, seeded, cached): the default architecture
   trained from scratch to copy digit strings, the two skills a tool exchange needs;
2. the tool warm start (``policy_opt.models.tool_warm_start``, seeded, cached): short SFT
   from it on demonstrations of which a share (15%) shows the tool exchange in the env's chat
   format and the rest the worked answer without the tool;
3. RL from it with each algorithm (``python -m policy_opt.compare``: same model, data, seed
   and budget each), saving a checkpoint every ``--save-every`` steps;
4. ``python -m policy_opt.evaluate`` on the same held-out prompts for the warm start and
   every checkpoint: greedy accuracy, tool calls per episode and turns per episode (read
   from the greedy conversations), as curves over training (PNG) and a Markdown table.

    python benchmarks/tool_learning.py --minutes 6 --max-points 3 --out runs/tool_learning
    python benchmarks/tool_learning.py --no-train --out runs/tool_learning   # evaluate only

``--no-train`` evaluates run folders already under ``--out`` (``<out>/<algo>/``, for runs
made separately, e.g. in parallel with ``python -m policy_opt.train``). Arguments this script
does not name go to ``policy_opt.compare`` (e.g. ``--steps``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = "envs.long_calculator:LongAdditionEnv"
KEYS = ("accuracy", "tool_calls", "turns")


def conversation_stats(completions: Path) -> dict[str, float]:
    """Greedy accuracy, tool calls and turns per episode from ``completions.jsonl``."""
    rows = [json.loads(line) for line in completions.read_text().splitlines() if line.strip()]
    if not rows:
        return {"accuracy": 0.0, "tool_calls": 0.0, "turns": 0.0, "episodes": 0}
    calls = turns = correct = 0
    for row in rows:
        greedy = row["greedy"]
        after = greedy.get("conversation") or [{"role": "assistant",
                                                "content": greedy["completion"]}]
        calls += sum(m.get("role") == "tool" for m in after)
        turns += sum(m.get("role") == "assistant" for m in after)
        correct += bool(greedy["correct"])
    n = len(rows)
    return {"accuracy": correct / n, "tool_calls": calls / n, "turns": turns / n, "episodes": n}


def checkpoints(run: Path) -> list[tuple[int, Path]]:
    """(step, folder) of a run's saved checkpoints, oldest first, then the final model (the
    run folder itself, at the last training step in its metrics)."""
    points = []
    for folder in sorted((run / "checkpoints").glob("step-*")):
        if folder.is_dir() and folder.name[5:].isdigit() and (folder / "config.json").is_file():
            points.append((int(folder.name[5:]), folder))
    steps = [json.loads(line).get("step", 0) for line in
             (run / "metrics.jsonl").read_text().splitlines()
             if line.strip() and json.loads(line).get("kind") == "train"] if (
        run / "metrics.jsonl").is_file() else []
    last = max(steps, default=0)
    if (run / "config.json").is_file() and last not in {s for s, _ in points}:
        points.append((last, run))
    return points


def spaced(points: list, n: int) -> list:
    """At most ``n`` of ``points``, evenly spaced, the last one always kept (``n`` < 1: all).

    Example:
        >>> spaced([1, 2, 3, 4, 5, 6], 2)
        [3, 6]
    """
    if n < 1 or len(points) <= n:
        return list(points)
    step = len(points) / n
    return [points[round(len(points) - 1 - i * step)] for i in reversed(range(n))]


def train_minutes(run: Path) -> float:
    """Minutes the run spent in training steps (its metrics' ``time_step``)."""
    path = run / "metrics.jsonl"
    if not path.is_file():
        return 0.0
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return sum(r.get("time_step", 0.0) for r in records if r.get("kind") == "train") / 60


def _plot(curves: dict[str, list[tuple[int, dict]]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for name, points in curves.items():
        steps = [s for s, _ in points]
        for ax, key in zip(axes, KEYS, strict=True):
            ax.plot(steps, [r[key] for _, r in points], marker="o", label=name)
    for ax, t in zip(axes, ("held-out greedy accuracy", "tool calls / episode (greedy)",
                            "turns / episode (greedy)"), strict=True):
        ax.set_title(t, fontsize=10)
        ax.set_xlabel("RL step (0 = the tool warm start)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=20.0, help="training budget per algorithm")
    p.add_argument("--algos", default="grpo,dr_grpo,gspo")
    p.add_argument("--out", default="runs/tool_learning")
    p.add_argument("--report", default=None,
                   help="folder for the table, JSON and PNG (default: --out)")
    p.add_argument("--env", default=ENV, help="the tool env (module:Class)")
    p.add_argument("--model", default=None,
                   help="the base of the tool warm start (default: copy, the copy base; or "
                        "default, or a model folder)")
    p.add_argument("--start-model", default=None,
                   help="run RL from this model folder as it is (e.g. benchmarks/tool_copy_sft.py's "
                        "output) instead of building the tool warm start")
    p.add_argument("--warm-start", default=None,
                   help="folder of the tool warm start: reused when it holds this recipe's "
                        "build, else built there (default: the cache, ~/.cache/rlvr)")
    p.add_argument("--warm-rows", type=int, default=None, help="tool warm start: rows")
    p.add_argument("--warm-steps", type=int, default=None, help="tool warm start: SFT steps")
    p.add_argument("--warm-batch-size", type=int, default=None)
    p.add_argument("--warm-lr", type=float, default=None, help="tool warm start: peak lr")
    p.add_argument("--tool-share", type=float, default=None,
                   help="tool warm start: share of rows that show the tool exchange")
    p.add_argument("--eval-prompts", type=int, default=64)
    p.add_argument("--max-turns", type=int, default=3)
    p.add_argument("--max-new-tokens", type=int, default=100)
    p.add_argument("--save-every", type=int, default=10)
    p.add_argument("--prompts-per-step", type=int, default=8)
    p.add_argument("--group-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=1e-4, help="RL learning rate")
    p.add_argument("--max-points", type=int, default=0,
                   help="evaluate at most this many checkpoints per run, evenly spaced, the "
                        "final model included (0: all)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--no-train", action="store_true",
                   help="evaluate the runs already under --out instead of training")
    args, rest = p.parse_known_args(argv)
    sys.path.insert(0, str(ROOT))
    from policy_opt import compare, evaluate
    from policy_opt.models import tool_warm_start

    fields = {"base": args.model, "env": args.env, "rows": args.warm_rows, "steps": args.warm_steps,
              "batch_size": args.warm_batch_size, "lr": args.warm_lr, "tool_share": args.tool_share}
    if args.start_model is not None:
        recipe, warm = None, Path(args.start_model)
        if not (warm / "config.json").is_file():
            p.error(f"--start-model {args.start_model!r}: no model folder (config.json) there")
    else:
        try:
            recipe = tool_warm_start.ToolRecipe(**{k: v for k, v in fields.items() if v is not None})
            warm = tool_warm_start.build(recipe, args.warm_start)
        except (ValueError, OSError) as err:  # a bad recipe, a missing --model, an occupied --warm-start
            p.error(str(err))
    out = Path(args.out)
    report = Path(args.report) if args.report else out
    report.mkdir(parents=True, exist_ok=True)
    algos = [a.strip() for a in args.algos.split(",") if a.strip()]
    common = ["--env", args.env, "--max-turns", str(args.max_turns),
              "--max-new-tokens", str(args.max_new_tokens), "--threads", str(args.threads)]
    if not args.no_train and algos:
        code = compare.main([*common, "--algos", ",".join(algos), "--minutes",
                             str(args.minutes), "--out", str(out), "--model", str(warm),
                             "--eval-every", "0", "--save-every", str(args.save_every),
                             "--keep-checkpoints", "1000",
                             "--prompts-per-step", str(args.prompts_per_step),
                             "--group-size", str(args.group_size), "--lr", str(args.lr), *rest])
        if code:
            return code

    def stats(model: Path, name: str) -> dict[str, float]:
        folder = out / "eval" / name
        if not (folder / "completions.jsonl").is_file():
            code = evaluate.main([*common, "--model", str(model), "--eval-prompts",
                                  str(args.eval_prompts), "--eval-k", "1", "--out", str(folder)])
            if code:
                raise SystemExit(code)
        return conversation_stats(folder / "completions.jsonl")

    start = stats(warm, "warm_start")
    curves = {a: [(0, start)] + [(s, stats(m, f"{a}-{s}"))
                                 for s, m in spaced(checkpoints(out / a), args.max_points)]
              for a in algos}
    table = {"warm start": {**start, "steps": 0, "train_minutes": 0.0}}
    for a in algos:
        step, final = curves[a][-1]
        table[a] = {**final, "steps": step, "train_minutes": train_minutes(out / a)}
    lines = ["| model | RL steps | train min | held-out greedy accuracy | change (pts) "
             "| tool calls / episode | turns / episode |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {n} | {r['steps']} | {r['train_minutes']:.1f} | {r['accuracy']:.3f} | "
              f"{100 * (r['accuracy'] - start['accuracy']):+.1f} | {r['tool_calls']:.2f} | "
              f"{r['turns']:.2f} |" for n, r in table.items()]
    summary = {"warm_start": {"path": str(warm), "recipe": None if recipe is None else recipe.__dict__},
               "table": table,
               "curves": {a: [{"step": s, **r} for s, r in pts] for a, pts in curves.items()}}
    (report / "tool_learning.md").write_text("\n".join(lines) + "\n")
    (report / "tool_learning.json").write_text(json.dumps(summary, indent=2) + "\n")
    _plot(curves, report / "tool_learning.png",
          f"RL from the tool warm start on {args.env.rpartition(':')[2]} "
          f"({args.eval_prompts} held-out prompts)")
    print("\n".join(lines))
    print(f"wrote {report / 'tool_learning.md'}, {report / 'tool_learning.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
