"""Does RL teach the policy to use a tool? A SMOKE version of issue #34's part 4.

Trains each algorithm on ``tool-calculator`` (``python -m policy_opt.compare``: same model,
data, seed and budget per algorithm), then evaluates the untrained model (the "warm start")
and every trained run on the same held-out prompts with ``python -m policy_opt.evaluate``
and reports, from the greedy conversations, held-out accuracy, tool calls per episode and
turns per episode, as a Markdown table and a bar chart (PNG):

    python benchmarks/tool_learning.py --minutes 2 --out runs/tool_learning

What this is not (yet): there is no warm start that teaches the tool's syntax (the default
model has never seen a ``<tool_call>``), the task is ``arithmetic``'s default level (small
numbers the model can add in its head), and there are no per-step curves of the tool-call
rate (the trainer's metrics do not record tool calls). So it measures; it does not show
learning.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = "tool-calculator"


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


def _plot(table: dict[str, dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(table)
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    for ax, key, title in zip(axes, ("accuracy", "tool_calls", "turns"),
                              ("held-out greedy accuracy", "tool calls / episode",
                               "turns / episode"), strict=True):
        ax.bar(names, [table[n][key] for n in names], color="#4a7ab5")
        ax.set_title(title)
        ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=2.0, help="training budget per algorithm")
    p.add_argument("--algos", default="grpo,dr_grpo,gspo")
    p.add_argument("--out", default="runs/tool_learning")
    p.add_argument("--model", default="default")
    p.add_argument("--eval-prompts", type=int, default=64)
    p.add_argument("--max-turns", type=int, default=3)
    p.add_argument("--max-new-tokens", type=int, default=48)
    p.add_argument("--threads", type=int, default=2)
    args, rest = p.parse_known_args(argv)
    sys.path.insert(0, str(ROOT))
    from policy_opt import compare, evaluate

    out = Path(args.out)
    common = ["--env", ENV, "--max-turns", str(args.max_turns),
              "--max-new-tokens", str(args.max_new_tokens), "--threads", str(args.threads)]
    code = compare.main([*common, "--algos", args.algos, "--minutes", str(args.minutes),
                         "--out", str(out), "--model", args.model, "--eval-every", "0",
                         "--eval-prompts", str(args.eval_prompts), "--save-every", "0", *rest])
    if code:
        return code
    algos = [a.strip() for a in args.algos.split(",") if a.strip()]
    table = {}
    for name, model in [("warm start", args.model), *((a, str(out / a)) for a in algos)]:
        folder = out / "eval" / name.replace(" ", "_")
        code = evaluate.main([*common, "--model", model, "--eval-prompts",
                              str(args.eval_prompts), "--eval-k", "1", "--out", str(folder)])
        if code:
            return code
        table[name] = conversation_stats(folder / "completions.jsonl")
    lines = ["| model | held-out greedy accuracy | tool calls / episode | turns / episode |",
             "|---|---|---|---|"]
    lines += [f"| {n} | {r['accuracy']:.3f} | {r['tool_calls']:.2f} | {r['turns']:.2f} |"
              for n, r in table.items()]
    (out / "tool_learning.md").write_text("\n".join(lines) + "\n")
    (out / "tool_learning.json").write_text(json.dumps(table, indent=2) + "\n")
    _plot(table, out / "tool_learning.png")
    print("\n".join(lines))
    print(f"wrote {out / 'tool_learning.md'}, {out / 'tool_learning.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
