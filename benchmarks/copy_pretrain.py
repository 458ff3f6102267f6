"""Can the default architecture learn to copy? Train it on copies of random digit strings.

Issue 34's blocker: tool use needs two copies (the operands into the call, the result into
the answer), and the default model, pretrained on one-digit arithmetic, never learns them in
the tool exchange (``benchmarks/tool_copy_sft.py``). This trains the same architecture on
``policy_opt.models.copy_base``'s task, from a fresh initialisation (the copy base's recipe)
or from a given model (``--init default``), and prints every ``--every`` steps the loss of
each copied digit as a ratio to a uniform guess (``ln 10``, the baseline: 1.00), the copy's
first digit apart from the rest, on 128 held-out strings. ``--out`` saves the model.

    python benchmarks/copy_pretrain.py --steps 800 --out runs/copy-base
    python benchmarks/copy_pretrain.py --init default --steps 500     # from the default model
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--init", default=None,
                   help="start from this model (default, or a folder); fresh when absent")
    p.add_argument("--steps", type=int, default=800)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--min-len", type=int, default=4, help="shortest digit string")
    p.add_argument("--max-len", type=int, default=10, help="longest digit string")
    p.add_argument("--gap", type=int, default=60, help="most filler characters between the copies")
    p.add_argument("--delims", default='<"( :=', help="the copies' opening delimiter is drawn from these")
    p.add_argument("--every", type=int, default=100)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=None, help="save the trained model here")
    args = p.parse_args(argv)
    if args.every < 1:
        p.error("--every must be at least 1")
    sys.path.insert(0, str(ROOT))
    import torch
    from transformers import LlamaForCausalLM

    from policy_opt.models import copy_base
    from policy_opt.models.default import default_config, default_tokenizer

    try:
        recipe = copy_base.CopyRecipe(steps=args.steps, batch_size=args.batch_size, lr=args.lr,
                                      min_len=args.min_len, max_len=args.max_len, gap=args.gap,
                                      delims=args.delims, seed=args.seed, threads=args.threads)
    except ValueError as err:
        p.error(str(err))
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    tok = default_tokenizer()
    if args.init:
        from policy_opt.models.policy import load_policy

        model, _ = load_policy(args.init, verbose=False)
    else:
        model = LlamaForCausalLM(default_config())
    print(f"copy pretraining from {args.init or 'a fresh default-architecture model'}: "
          f"{args.steps} steps of {args.batch_size}, lr {args.lr}; copy loss per digit / ln 10 "
          "(1.00: a uniform guess) on 128 held-out strings", flush=True)
    copy_base.train(model, recipe, tok, every=args.every)
    if args.out:
        model.save_pretrained(args.out)
        tok.save_pretrained(args.out)
        print(f"saved to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
