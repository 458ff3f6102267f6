"""What RL changed on ``arithmetic``: the warm start's slip against its worked steps.

The default model's warm start (``policy_opt/pretrain.py``) imitates a careless
demonstrator: in 70% of the multi-step examples every step is right but the ``#### N`` line
reports the first step's result. This script decodes held-out (``test``) problems with the
default model (the baseline) and with each model given, and prints, per model:

- accuracy on two- and three-operand problems (greedy, and mean@k at temperature 1);
- on three-operand problems, the share of completions whose worked steps are all right, and
  the share that are slips (steps right, answer line = the first step's result).

If RL removed the slip, the slip share falls towards 0 and three-operand accuracy rises
towards the steps-right share; if RL taught arithmetic, the steps-right share rises.

    python benchmarks/slip.py runs/learning/gspo/checkpoints/step-000637   # a trained model
    python benchmarks/slip.py --rows 400 --k 4 PATH [PATH ...]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure(path: str, rows: list, k: int, threads: int) -> dict[str, dict[str, float]]:
    """Per decoding mode ("greedy", "T=1"): accuracy by operand count, steps-right and slip
    shares on three-operand problems."""
    import torch

    from policy_opt.models import load_policy
    from policy_opt.models.warm_start import answer_line, slipped
    from policy_opt.rollout.engine import TransformersEngine

    torch.set_num_threads(threads)
    model, tok = load_policy(path, verbose=False)
    model.eval()
    prompts = [tok.encode(tok.apply_chat_template(list(r.prompt), tokenize=False,
                                                  add_generation_prompt=True),
                          add_special_tokens=False) for r in rows]
    engine = TransformersEngine(model, tok, max_batch_size=128)
    out = {}
    for mode, temperature, n in (("greedy", 0.0, 1), (f"T=1 mean@{k}", 1.0, k)):
        gens = engine.generate([p for p in prompts for _ in range(n)], max_new_tokens=32,
                               temperature=temperature, seed=5)
        c: Counter = Counter()
        for i, row in enumerate(rows):
            steps = list(row.info["steps"])
            ops = len(steps) + 1
            for g in gens[i * n:(i + 1) * n]:
                text = tok.decode(g.token_ids, skip_special_tokens=True)
                answer = answer_line(text)
                c[ops, "n"] += 1
                c[ops, "right"] += answer == row.answer
                if ops == 3:  # a slip is exactly the warm start's careless demonstration
                    c["steps"] += text.strip().split("\n")[:-1] == steps
                    c["slip"] += text.strip() == slipped(steps) and answer != row.answer
        out[mode] = {
            "2-operand acc": c[2, "right"] / max(1, c[2, "n"]),
            "3-operand acc": c[3, "right"] / max(1, c[3, "n"]),
            "3-operand steps right": c["steps"] / max(1, c[3, "n"]),
            "3-operand slips": c["slip"] / max(1, c[3, "n"]),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="*", help="model folders to compare with the default model")
    p.add_argument("--rows", type=int, default=400, help="held-out problems")
    p.add_argument("--k", type=int, default=4, help="samples per problem at temperature 1")
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)
    for flag in ("rows", "k", "threads"):
        if getattr(args, flag) < 1:
            p.error(f"--{flag} must be >= 1, got {getattr(args, flag)}")
    import tasks

    rows = tasks.get("arithmetic").rows("test", seed=7, limit=args.rows)
    print(f"{args.rows} held-out arithmetic problems "
          f"({sum(len(r.info['steps']) == 2 for r in rows)} with three operands)")
    for path in ["default", *args.models]:
        try:
            measured = measure(path, rows, args.k, args.threads)
        except (OSError, ValueError) as err:
            print(f"error: model {path!r}: {err}", file=sys.stderr)
            return 2
        for mode, stats in measured.items():
            cells = "  ".join(f"{name} {100 * v:5.1f}%" for name, v in stats.items())
            name = "/".join(Path(path).parts[-3:])
            print(f"{name:>28s} {mode:11s} {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
