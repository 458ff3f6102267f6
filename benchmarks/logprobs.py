"""Peak memory and time: ``token_logprobs`` vs the naive ``log_softmax(...).gather(...)``.

    python benchmarks/logprobs.py                    # 4,096 tokens x 151,936 vocab, fp32
    python benchmarks/logprobs.py --tokens 512 --dtype bfloat16

Shape: 4,096 sampled tokens (e.g. 8 completions x 512 tokens) over Qwen's 151,936-token
vocabulary; fp32 logits are 2.5 GB. Two passes are measured for each method: the forward alone
(computing old/reference log-probs under ``no_grad``) and forward + backward (training).

How peak memory is measured. ``tracemalloc`` does not see torch's allocations, and torch's CPU
allocator keeps no peak statistics, so the script uses the kernel's own high-water mark of the
process's resident memory: every (method, pass) runs in a fresh subprocess, which builds the
inputs, then writes ``5`` to ``/proc/self/clear_refs`` (resets ``VmHWM`` to the current RSS,
Linux >= 4.0) and reads ``VmRSS``; after the operation it reads ``VmHWM``. The figure is
``VmHWM - VmRSS before``: the extra resident memory the operation needed at its peak, inputs
excluded. glibc serves these multi-MB blocks with mmap, so freed memory leaves RSS at once and
pages are counted when touched (``torch.empty`` alone costs nothing until written). Time is
that of the measured run (best of it and ``--repeats`` more runs in the same subprocess).

On a GPU the same script measures ``torch.cuda.max_memory_allocated`` instead (``--device
cuda``). The script prints each figure and the ratio ours / naive measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import torch

VOCAB = 151_936


def _status_kb(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status (Linux only)")


def _run_one(
    method: str,
    backward: bool,
    tokens: int,
    vocab: int,
    dtype: str,
    device: str,
    repeats: int,
    chunk_size: int,
) -> dict:
    from policy_opt.algorithm.logprobs import token_logprobs

    torch.manual_seed(0)
    # 64 random rows tiled: generating 622M normal samples would dominate the script's run time,
    # and the values do not change the work done.
    rows = torch.randn(min(tokens, 64), vocab, device=device) * 3
    logits = rows.repeat(-(-tokens // rows.shape[0]), 1)[:tokens].to(getattr(torch, dtype))
    ids = torch.randint(0, vocab, (tokens,), device=device)
    weight = torch.randn(tokens, device=device)

    def op() -> None:
        x = logits.detach().requires_grad_(backward)
        with torch.set_grad_enabled(backward):
            if method == "ours":
                lp = token_logprobs(x, ids, chunk_size=chunk_size)
            else:
                lp = x.float().log_softmax(-1).gather(-1, ids.unsqueeze(-1)).squeeze(-1)
            if backward:
                (lp * weight).sum().backward()
                assert x.grad is not None

    t_first = time.perf_counter()
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        op()
        torch.cuda.synchronize()
        peak = torch.cuda.max_memory_allocated() - before
    else:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        before = _status_kb("VmRSS") * 1024
        op()
        peak = _status_kb("VmHWM") * 1024 - before
    times = [time.perf_counter() - t_first]
    for _ in range(repeats):
        if device == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        op()
        if device == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return {"peak_bytes": peak, "seconds": min(times)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tokens", type=int, default=4096)
    p.add_argument("--vocab", type=int, default=VOCAB)
    p.add_argument("--dtype", default="float32", choices=("float32", "bfloat16", "float16"))
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    p.add_argument(
        "--repeats",
        type=int,
        default=0,
        help="extra timed runs after the measured one (time = best of all)",
    )
    p.add_argument("--chunk-size", type=int, default=256)
    p.add_argument("--no-backward", action="store_true", help="measure the forward pass only")
    p.add_argument("--_child", help=argparse.SUPPRESS)
    args = p.parse_args()

    if args._child:
        method, backward = args._child.split(":")
        res = _run_one(
            method,
            backward == "1",
            args.tokens,
            args.vocab,
            args.dtype,
            args.device,
            args.repeats,
            args.chunk_size,
        )
        print(json.dumps(res))
        return

    gib = args.tokens * args.vocab * torch.finfo(getattr(torch, args.dtype)).bits / 8 / 2**30
    print(
        f"token_logprobs vs naive log_softmax+gather: {args.tokens} tokens x {args.vocab} "
        f"vocab, {args.dtype} logits ({gib:.2f} GiB), device {args.device}, "
        f"chunk_size {args.chunk_size}"
    )
    passes = [False] if args.no_backward else [False, True]
    for backward in passes:
        results = {}
        for method in ("naive", "ours"):
            cmd = [
                sys.executable,
                __file__,
                "--_child",
                f"{method}:{int(backward)}",
                "--tokens",
                str(args.tokens),
                "--vocab",
                str(args.vocab),
                "--dtype",
                args.dtype,
                "--device",
                args.device,
                "--repeats",
                str(args.repeats),
                "--chunk-size",
                str(args.chunk_size),
            ]
            out = subprocess.run(cmd, capture_output=True, text=True, check=True)
            results[method] = json.loads(out.stdout.strip().splitlines()[-1])
        name = "forward+backward" if backward else "forward"
        n, o = results["naive"], results["ours"]
        print(
            f"{name:>17}: peak extra memory naive {n['peak_bytes'] / 2**20:8.0f} MiB, ours "
            f"{o['peak_bytes'] / 2**20:8.0f} MiB -> ratio {o['peak_bytes'] / n['peak_bytes']:.3f}x"
            f" | time naive {n['seconds']:.3f} s, ours {o['seconds']:.3f} s -> ratio "
            f"{o['seconds'] / n['seconds']:.2f}x"
        )


if __name__ == "__main__":
    main()
