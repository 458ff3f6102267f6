"""``python -m policy_opt.compare``: the same model, data, seed and budget for each algorithm.

Runs ``policy_opt.train`` once per algorithm into ``<out>/<algo>/`` and writes

- ``<out>/compare.png``: held-out greedy accuracy, batch reward, and response length split
  by correct / incorrect completions (the quantity Dr.GRPO's length-bias argument is about),
  one line per algorithm;
- ``<out>/compare.md``: a Markdown table of the start and final numbers.

Example::

    python -m policy_opt.compare --env arithmetic --algos grpo,dr_grpo,gspo --steps 40

Any other flag is passed to every run unchanged (``--model``, ``--lr``, ``--group-size`` ...).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from policy_opt.config import ALGOS, ConfigError, parse_config
from policy_opt.training.plots import read_metrics


def summarise(algo: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    """Start and final held-out numbers and the last steps' batch statistics of one run."""
    evals = [r for r in records if r.get("kind") == "eval"]
    train = [r for r in records if r.get("kind") == "train"]
    tail = train[-max(1, len(train) // 5):] if train else []

    def avg(key: str) -> float | None:
        vals = [r[key] for r in tail if r.get(key) is not None]
        return sum(vals) / len(vals) if vals else None

    return {
        "algo": algo,
        "steps": train[-1]["step"] if train else 0,
        "acc_start": evals[0]["accuracy"] if evals else None,
        "acc_final": evals[-1]["accuracy"] if evals else None,
        "pass_k_final": evals[-1]["pass_at_k"] if evals else None,
        "sampled_start": evals[0].get("sampled_accuracy") if evals else None,
        "sampled_final": evals[-1].get("sampled_accuracy") if evals else None,
        "reward_final": avg("reward_mean"),
        "len_correct": avg("len_correct"),
        "len_incorrect": avg("len_incorrect"),
        "minutes": sum(r.get("time_step", 0.0) for r in train) / 60,
    }


def markdown_table(rows: list[dict[str, Any]], k: int) -> str:
    def fmt(v: Any, pct: bool = False) -> str:
        if v is None:
            return "-"
        if isinstance(v, float):
            return f"{100 * v:.1f}" if pct else f"{v:.2f}"
        return str(v)

    head = ("| algo | steps | train min | held-out acc start | held-out acc final | change (pts) "
            f"| sampled acc start | sampled acc final | pass@{k} final | batch reward (last 20%) "
            "| len correct | len incorrect |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    lines = []
    for r in rows:
        delta = (None if r["acc_start"] is None or r["acc_final"] is None
                 else 100 * (r["acc_final"] - r["acc_start"]))
        lines.append(
            f"| {r['algo']} | {r['steps']} | {fmt(r['minutes'])} | {fmt(r['acc_start'], True)} "
            f"| {fmt(r['acc_final'], True)} | {'-' if delta is None else f'{delta:+.1f}'} "
            f"| {fmt(r['sampled_start'], True)} | {fmt(r['sampled_final'], True)} "
            f"| {fmt(r['pass_k_final'], True)} | {fmt(r['reward_final'])} "
            f"| {fmt(r['len_correct'])} | {fmt(r['len_incorrect'])} |")
    return head + "\n".join(lines) + "\n"


def moving_average(values: Sequence[float], window: int) -> list[float]:
    """Trailing mean over the last ``window`` values (fewer at the start): per-step batch
    statistics of 8-16 prompts are too noisy to read raw.

    >>> moving_average([1.0, 3.0, 5.0, 7.0], 2)
    [1.0, 2.0, 4.0, 6.0]
    """
    out, total = [], 0.0
    for i, v in enumerate(values):
        total += v
        if i >= window:
            total -= values[i - window]
        out.append(total / min(i + 1, window))
    return out


def plot_compare(runs: dict[str, list[dict[str, Any]]], png: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(17, 3.8))
    for algo, records in runs.items():
        evals = [r for r in records if r.get("kind") == "eval"]
        train = [r for r in records if r.get("kind") == "train"]
        line = axes[0].plot([r["step"] for r in evals], [r["accuracy"] for r in evals],
                            marker="o", label=algo)[0]
        color = line.get_color()
        if evals and all("sampled_accuracy" in r for r in evals):  # older runs lack it
            axes[0].plot([r["step"] for r in evals], [r["sampled_accuracy"] for r in evals],
                         linestyle="--", color=color, alpha=0.6)
        for ax, key in ((axes[1], "reward_mean"), (axes[2], "len_correct"),
                        (axes[3], "len_incorrect")):
            pts = [(r["step"], r[key]) for r in train if r.get(key) is not None]
            if pts:
                steps, values = zip(*pts)
                ax.plot(steps, moving_average(values, max(1, len(values) // 25)), color=color,
                        label=algo)
    titles = ("held-out accuracy (greedy solid, sampled dashed)", "batch mean reward (moving avg)",
              "length of correct (tokens, moving avg)", "length of incorrect (moving avg)")
    for ax, t in zip(axes, titles):
        ax.set_title(t, fontsize=10)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:  # a panel can be empty (no incorrect answers)
            ax.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m policy_opt.compare",
        description="Train each algorithm with the same model, data, seed and budget; plot and "
                    "tabulate. Unknown flags are passed to every policy_opt.train run.")
    parser.add_argument("--algos", default="grpo,dr_grpo,gspo",
                        help="comma-separated algorithm presets")
    parser.add_argument("--steps", type=int, default=None, help="training steps per algorithm")
    parser.add_argument("--minutes", type=float, default=None,
                        help="wall-clock budget per algorithm (minutes)")
    parser.add_argument("--out", default="runs/compare", help="output folder")
    args, rest = parser.parse_known_args(argv)
    algos = [a.strip() for a in args.algos.split(",") if a.strip()]
    bad = [a for a in algos if a not in ALGOS]
    if not algos or bad:
        print(f"error: --algos must name presets from {', '.join(ALGOS)}; got {args.algos!r}",
              file=sys.stderr)
        return 2
    twice = sorted({a for a in algos if algos.count(a) > 1})
    if twice:  # each run writes <out>/<algo>/: a second one would overwrite the first
        print(f"error: --algos names {', '.join(twice)} more than once", file=sys.stderr)
        return 2
    for flag in ("steps", "minutes"):
        value = getattr(args, flag)
        if value is not None and not (value > 0 and math.isfinite(value)):
            # --minutes 0 would mean "no limit" to the trainer, with a million steps to run.
            print(f"error: --{flag} must be a finite number > 0, got {value}", file=sys.stderr)
            return 2
    out = Path(args.out)
    if not args.out.strip() or (out.exists() and not out.is_dir()):
        print(f"error: --out must name a folder, got {args.out!r}", file=sys.stderr)
        return 2
    extra = list(rest)
    if args.steps is not None:
        extra += ["--max-steps", str(args.steps)]
    if args.minutes is not None:
        extra += ["--max-minutes", str(args.minutes)]
        if args.steps is None:  # the clock is the budget
            extra += ["--max-steps", "1000000"]

    from policy_opt.train import Trainer, TrainingError
    from policy_opt.training.run_folder import check_out

    runs: dict[str, list[dict[str, Any]]] = {}
    try:  # every run's flags are checked before the first one spends its budget
        configs = [parse_config(extra + ["--algo", a, "--out", str(out / a)]) for a in algos]
        for cfg in configs:  # a second comparison in the same --out needs --overwrite
            check_out(cfg.out, resume=cfg.resume, overwrite=cfg.overwrite)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for cfg in configs:
        print(f"== {cfg.algo} ==", flush=True)
        try:
            Trainer(cfg).train()
        except ConfigError as err:  # found while building: unknown env, unloadable model
            print(f"error: {err}", file=sys.stderr)
            return 2
        except TrainingError as err:
            print(f"{cfg.algo}: training stopped: {err}", file=sys.stderr)
        runs[cfg.algo] = read_metrics(out / cfg.algo / "metrics.jsonl")
    env, k = configs[0].env, configs[0].eval_k
    table = markdown_table([summarise(a, r) for a, r in runs.items()], k)
    (out / "compare.md").write_text(table)
    png = plot_compare(runs, out / "compare.png", title=f"{', '.join(algos)} on {env}")
    print(table)
    print(f"wrote {png} and {out / 'compare.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
