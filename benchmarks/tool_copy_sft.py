"""How many supervised steps does the default model need to copy in the tool exchange?

Fine-tunes a model on the tool exchange alone (``tool_share`` 1.0 by default: every
demonstration calls the calculator and copies its result; loss on the assistant turns, as in
``policy_opt.models.tool_warm_start``) and prints, every ``--every`` steps, the loss per copied
digit of each copy (``benchmarks/tool_copy_loss.py``) as a ratio to uniform digits (``ln 10``):
near 1, the digit is guessed; near 0, it is copied. The held-out exchanges are drawn with
another seed than the training ones.

    python benchmarks/tool_copy_sft.py --steps 500 --out runs/tool-copy-sft
    python benchmarks/tool_copy_sft.py --env envs.long_calculator:LongAdditionEnv --steps 500
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="default", help="the model fine-tuned")
    p.add_argument("--env", default="envs.long_calculator:LongCalculatorEnv")
    p.add_argument("--steps", type=int, default=500)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--tool-share", type=float, default=1.0)
    p.add_argument("--rows", type=int, default=2000, help="training demonstrations")
    p.add_argument("--eval-rows", type=int, default=48, help="held-out exchanges scored")
    p.add_argument("--every", type=int, default=50, help="score the copies every this many steps")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="save the fine-tuned model here")
    args = p.parse_args(argv)
    for name in ("steps", "batch_size", "rows", "eval_rows", "every", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1")
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import torch
    from tool_copy_loss import copy_losses

    from policy_opt.models import tool_warm_start as tw
    from policy_opt.models.policy import load_policy

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    try:
        model, tok = load_policy(args.model, verbose=False)
        recipe = tw.ToolRecipe(env=args.env, rows=args.rows, tool_share=args.tool_share,
                               seed=args.seed)
    except (OSError, ValueError) as err:
        p.error(str(err))
    try:
        train = [tw.encode_conversation(tok, c) for c in tw.demonstrations(recipe)]
    except (ImportError, KeyError, ValueError) as err:  # an unknown --env: one line
        p.error(f"--env {args.env!r}: {err}")
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.0)
    gen = torch.Generator().manual_seed(args.seed)
    t0 = time.perf_counter()
    print(f"{args.model} on {args.env}: {len(train)} demonstrations (tool share "
          f"{args.tool_share}), {args.steps} steps of {args.batch_size}, lr {args.lr}; copy loss "
          "per digit / ln 10 on held-out exchanges", flush=True)
    model.train()
    for step in range(args.steps + 1):
        if step % args.every == 0 or step == args.steps:
            ratio = {k: v / math.log(10) for k, v in copy_losses(
                model, args.eval_rows, args.seed + 7, env=args.env, tok=tok).items()}
            print(f"step {step:5d}  expression {ratio['expression']:.3f}  result "
                  f"{ratio['result']:.3f}  ({time.perf_counter() - t0:.0f} s)", flush=True)
        if step == args.steps:
            break
        idx = torch.randint(len(train), (args.batch_size,), generator=gen).tolist()
        ids, labels, mask = tw._collate([train[i] for i in idx], tok.pad_token_id)
        for group in opt.param_groups:  # linear warm-up over 10 steps, then constant
            group["lr"] = args.lr * min(1.0, (step + 1) / 10)
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
    if args.out:
        model.eval()
        model.save_pretrained(args.out)
        tok.save_pretrained(args.out)
        print(f"saved {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
