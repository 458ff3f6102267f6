"""Rollout speed: TransformersEngine against plain ``model.generate``, same run.

Same model, same left-padded prompts (ragged chat prompts), same ``max_new_tokens``, same
decoding; prints tokens/s of each and the ratio (target >= 1.0x). Greedy runs must produce
identical tokens, which the script checks; sampling runs count the tokens each produced.

    python benchmarks/rollout.py                       # default model (random init if not built)
    python benchmarks/rollout.py --model default --batch 64 --new-tokens 64 --threads 2
    python benchmarks/rollout.py --model Qwen/Qwen2.5-0.5B-Instruct --device cuda
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import torch


def _prompts(tok, n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        terms = "+".join(str(rng.randint(0, 99)) for _ in range(rng.randint(2, 6)))
        text = f"What is {terms}?" + " Think step by step." * rng.randint(0, 3)
        messages = [{"role": "user", "content": text + "\nEnd with the answer line '#### N'."}]
        rendered = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        out.append(tok.encode(rendered, add_special_tokens=False))
    return out


def _load(name: str, device: str):
    from policy_opt.models import default_config, default_model_path, default_tokenizer, load_policy

    if name == "default":
        try:
            default_model_path(build=False)
        except FileNotFoundError:
            from transformers import LlamaForCausalLM

            print("default model not built: timing a randomly initialised one (same shape)")
            torch.manual_seed(0)
            return LlamaForCausalLM(default_config()).eval().to(device), default_tokenizer()
    return load_policy(name, device=device)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--model", default="default")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--new-tokens", type=int, default=64)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    torch.set_num_threads(args.threads)

    from policy_opt.rollout.engine import TransformersEngine

    model, tok = _load(args.model, args.device)
    prompts = _prompts(tok, args.batch, args.seed)
    engine = TransformersEngine(model, tok)
    n_params = sum(q.numel() for q in model.parameters())
    lens = [len(q) for q in prompts]
    print(
        f"model {args.model} ({n_params / 1e6:.1f}M params), batch {args.batch}, "
        f"prompt lengths {min(lens)}-{max(lens)}, {args.new_tokens} new tokens, "
        f"{args.threads} threads, {args.device}"
    )

    def run_generate(sample: bool) -> int:
        enc = tok.pad({"input_ids": prompts}, return_tensors="pt").to(args.device)
        kw = (
            {"do_sample": True, "temperature": 1.0, "top_p": 1.0}
            if sample
            else {"do_sample": False}
        )
        with torch.inference_mode():
            out = model.generate(
                **enc,
                max_new_tokens=args.new_tokens,
                pad_token_id=tok.pad_token_id,
                eos_token_id=tok.eos_token_id,
                **kw,
            )
        new = out[:, enc["input_ids"].shape[1] :]
        # Count real tokens: up to and including the first EOS of each row.
        count = 0
        for row in new.tolist():
            count += row.index(tok.eos_token_id) + 1 if tok.eos_token_id in row else len(row)
        return count

    def run_engine(sample: bool) -> int:
        gens = engine.generate(
            prompts,
            max_new_tokens=args.new_tokens,
            temperature=1.0 if sample else 0.0,
            seed=args.seed,
        )
        return sum(len(g.token_ids) for g in gens)

    # Greedy outputs must agree before their speeds mean anything.
    ref = model.generate(
        **tok.pad({"input_ids": prompts}, return_tensors="pt").to(args.device),
        max_new_tokens=8,
        do_sample=False,
        pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id,
    )
    ours = engine.generate(prompts, max_new_tokens=8, temperature=0.0)
    width = max(lens)
    agree = sum(
        r[width : width + len(g.token_ids)].tolist() == g.token_ids for r, g in zip(ref, ours)
    )
    print(f"greedy agreement with model.generate: {agree}/{len(prompts)} rows")

    for mode, sample in (("greedy", False), ("sample", True)):
        rates = {"generate": [], "engine": []}
        for _ in range(args.repeats):
            # Alternate the two so machine load drifts affect both alike.
            for name, fn in (("generate", run_generate), ("engine", run_engine)):
                t0 = time.perf_counter()
                n = fn(sample)
                rates[name].append(n / (time.perf_counter() - t0))
        g, e = statistics.median(rates["generate"]), statistics.median(rates["engine"])
        print(
            f"{mode:6s}  model.generate {g:8.0f} tok/s   TransformersEngine {e:8.0f} tok/s   "
            f"ratio {e / g:.2f}x"
        )


if __name__ == "__main__":
    main()
