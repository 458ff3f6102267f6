"""Learning-curve plots from a run's metrics.jsonl (matplotlib, no display needed)."""

from __future__ import annotations

import json
from pathlib import Path


def read_metrics(path: str | Path) -> list[dict]:
    """The JSON records of a metrics.jsonl file, in order (blank lines skipped)."""
    records = []
    for line in Path(path).read_text().splitlines():
        if line.strip():
            records.append(json.loads(line))
    return records


def _tasks(records: list[dict]) -> list[str]:
    """The tasks of a mixture run named in ``records`` (keys ``accuracy/<task>``), in order."""
    return list(dict.fromkeys(k.split("/", 1)[1] for r in records for k in r
                              if k.startswith("accuracy/")))


def plot_run(metrics_path: str | Path, png_path: str | Path, title: str = "") -> Path:
    """Write a PNG of reward, held-out accuracy, response length, and the policy's entropy
    and clip fraction over steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    records = read_metrics(metrics_path)
    train = [r for r in records if r.get("kind") == "train"]
    evals = [r for r in records if r.get("kind") == "eval"]
    fig, axes = plt.subplots(1, 4, figsize=(17, 3.6))
    steps = [r["step"] for r in train]
    axes[0].plot(steps, [r["reward_mean"] for r in train], label="batch reward")
    axes[0].plot(steps, [r["accuracy"] for r in train], label="batch accuracy", alpha=0.7)
    axes[0].set_title("reward")
    if evals:
        es = [r["step"] for r in evals]
        axes[1].plot(es, [r["accuracy"] for r in evals], marker="o", label="greedy accuracy")
        if all("sampled_accuracy" in r for r in evals):
            axes[1].plot(es, [r["sampled_accuracy"] for r in evals], marker="^",
                         label="sampled accuracy")
        axes[1].plot(es, [r["pass_at_k"] for r in evals], marker="s",
                     label=f"pass@{evals[0].get('k', 'k')}")
        # A mixture run's tasks (accuracy/<task>), dashed under the overall lines.
        for task in _tasks(evals):
            pts = [(r["step"], r[f"accuracy/{task}"]) for r in evals
                   if r.get(f"accuracy/{task}") is not None]
            axes[1].plot(*zip(*pts), linestyle="--", alpha=0.7, label=f"greedy {task}")
    for task in _tasks(train):
        pts = [(r["step"], r[f"reward/{task}"]) for r in train
               if r.get(f"reward/{task}") is not None]
        if pts:
            axes[0].plot(*zip(*pts), linestyle="--", alpha=0.7, label=f"reward {task}")
    axes[1].set_title("held-out")
    axes[2].plot(steps, [r["len_mean"] for r in train], label="all")
    for key, label in (("len_correct", "correct"), ("len_incorrect", "incorrect")):
        pts = [(r["step"], r[key]) for r in train if r.get(key) is not None]
        if pts:
            axes[2].plot(*zip(*pts), label=label, alpha=0.7)
    axes[2].set_title("response length (tokens)")
    # What TRL/verl users watch for collapse or runaway updates: entropy and clipping.
    lines = []
    for key, label, ax in (("entropy", "entropy (nats/token)", axes[3]),
                           ("clip_frac", "clip fraction (right)", axes[3].twinx())):
        pts = [(r["step"], r[key]) for r in train if r.get(key) is not None]
        if pts:
            lines += ax.plot(*zip(*pts), label=label,
                             color="C0" if key == "entropy" else "C3", alpha=0.8)
    axes[3].set_title("policy")
    for ax in axes:
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:  # a panel with no data yet has no legend
            ax.legend(fontsize=8)
    if lines:  # the twin axis's line joins the policy panel's legend
        axes[3].legend(lines, [line.get_label() for line in lines], fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    png_path = Path(png_path)
    tmp = png_path.with_suffix(".tmp.png")
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    tmp.replace(png_path)
    return png_path
