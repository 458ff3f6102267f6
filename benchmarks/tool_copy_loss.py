"""Can a model copy a tool's result into its answer? The skill ``benchmarks/tool_learning.py``
needs and the default model lacks.

On ``envs.long_calculator`` the tool path is: copy the expression from the prompt into a
``<tool_call>``, then copy the calculator's result from the tool message into ``#### N``.
This plays ``--rows`` demonstrations of that exchange through the env, and prints the
model's mean loss (nats) per digit on each copy, against the baseline of a model that knows
only that a digit comes next: ``ln 10 = 2.303`` nats (uniform over the ten digits). A ratio
near 1 (or above) means the copy is not learned; near 0, it is.

    python benchmarks/tool_copy_loss.py --model default
    python benchmarks/tool_copy_loss.py --model runs/tool-warm-start
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
UNIFORM = math.log(10)


def copy_losses(model_path: str | Any, rows: int = 64, seed: int = 0, *,
                env: str | None = None, tok: Any = None, by_position: bool = False) -> dict:
    """Mean loss per digit of the expression copied into the tool call and of the result
    copied from the tool message into the answer line (``model_path``: a folder, or a loaded
    model with its ``tok``; ``env``: the tool env, default the warm start's). With
    ``by_position``, the mean at each digit of each copy instead: the expression's digits
    counted from its first (0, 1, ...), the result's from its last (-1, -2, ...), so that
    results of different lengths line up."""
    import torch

    from policy_opt.models import tool_warm_start as tw
    from policy_opt.models.policy import load_policy

    if tok is None:
        model, tok = load_policy(model_path, verbose=False)
    else:
        model = model_path
    was_training = model.training
    model.eval()
    sums = {"expression": [0.0, 0], "result": [0.0, 0]}
    at: dict[str, dict[int, list[float]]] = {"expression": {}, "result": {}}
    recipe = tw.ToolRecipe(rows=rows, tool_share=1.0, seed=seed, **({"env": env} if env else {}))
    for conversation in tw.demonstrations(recipe):
        ids, labels = tw.encode_conversation(tok, conversation)
        with torch.no_grad():
            logp = torch.log_softmax(model(input_ids=torch.tensor([ids])).logits[0, :-1], -1)
        call, answer = conversation[-3]["content"], conversation[-1]["content"]
        expression = call.split('"expression": "')[1].split('"')[0]
        for name, span in (("expression", expression), ("result", answer)):
            # Byte tokens: the span's ids occur as a run; take the run in an assistant turn.
            run = tok.encode(span, add_special_tokens=False)
            starts = [i for i in range(1, len(ids) - len(run) + 1)
                      if ids[i:i + len(run)] == run and labels[i] != -100]
            if not starts:
                raise RuntimeError(f"{span!r} is not in an assistant turn")
            digits = [k for k, char in enumerate(span) if char.isdigit()]
            for j, k in enumerate(digits):
                position = starts[-1] + k
                loss = -logp[position - 1, ids[position]].item()
                sums[name][0] += loss
                sums[name][1] += 1
                at[name].setdefault(j if name == "expression" else j - len(digits), []).append(loss)
    model.train(was_training)
    if by_position:
        return {name: {k: sum(v) / len(v) for k, v in sorted(by.items())} for name, by in at.items()}
    return {name: total / max(count, 1) for name, (total, count) in sums.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="default")
    p.add_argument("--rows", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--env", default=None, help="the tool env (default: the warm start's)")
    p.add_argument("--by-position", action="store_true",
                   help="also the ratio at each digit of each copy (expression from its first "
                        "digit, result from its last)")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    try:
        losses = copy_losses(args.model, args.rows, args.seed, env=args.env)
        at = copy_losses(args.model, args.rows, args.seed, env=args.env,
                         by_position=True) if args.by_position else None
    except (OSError, ValueError, ImportError, KeyError) as err:
        p.error(str(err))  # a missing model folder, --rows 0, an unknown --env: one line
    print(f"{args.model}: loss per copied digit over {args.rows} tool exchanges "
          f"(baseline: uniform over digits, ln 10 = {UNIFORM:.3f} nats)")
    for name, label in (("expression", "expression -> tool call"),
                        ("result", "tool result -> #### line")):
        print(f"  {label:26s} {losses[name]:6.3f} nats  ratio to uniform "
              f"{losses[name] / UNIFORM:5.2f}")
    if at is not None:
        print("ratio to uniform at each digit of the copy:")
        for name in ("expression", "result"):
            print(f"  {name:10s} " + "  ".join(f"{k}: {v / UNIFORM:.2f}" for k, v in at[name].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
