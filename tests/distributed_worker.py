"""Run policy_opt.train with a deterministic rollout engine and dump the final parameters.

Used by tests/test_distributed.py, plainly and under ``torchrun --nproc_per_node 2`` (DDP
or FSDP2; sharded parameters are gathered for the dump). The scripted engine's completions
depend only on the prompt and the copy's index in its group, so the episodes are the same
however the prompts are sharded, and any difference in the final parameters comes from the
data-parallel update itself.

    python tests/distributed_worker.py DUMP_DIR [--model-engine] -- <policy_opt.train flags>
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import zlib

import torch

from policy_opt.rollout.engine import Generation
from policy_opt.train import Trainer, main


class ScriptedEngine:
    """Answers ``#### k`` with k = (crc32(prompt) + copy index) % 4, except the first copy of
    each group, which drops the ``####`` (a format miss): every group has mixed rewards."""

    def __init__(self, tokenizer, group_size: int):
        self.tokenizer = tokenizer
        self.group_size = group_size

    def sync_weights(self, model) -> None:
        pass

    def generate(self, prompts, *, max_new_tokens, temperature=1.0, top_p=1.0, stop=(),
                 seed=None):
        out = []
        for j, ids in enumerate(prompts):
            k = (zlib.crc32(bytes(i % 256 for i in ids)) + j % self.group_size) % 4
            text = f"{k}" if j % self.group_size == 0 else f"#### {k}"
            toks = self.tokenizer.encode(text, add_special_tokens=False)[:max_new_tokens]
            toks = (toks + [self.tokenizer.eos_token_id])[:max_new_tokens]
            out.append(Generation(token_ids=toks, logprobs=None,
                                  finish_reason="stop" if len(toks) < max_new_tokens else "length"))
        return out


def full_parameters(model) -> dict[str, torch.Tensor]:
    """The model's state dict with FSDP2 shards gathered (a collective: every rank calls it)."""
    from torch.distributed.tensor import DTensor

    return {k: (v.full_tensor() if isinstance(v, DTensor) else v).detach().clone()
            for k, v in model.state_dict().items()}


def run(dump_dir: str, argv: list[str], scripted: bool = True) -> int:
    def make_engine(self):
        return ScriptedEngine(self.tokenizer, self.cfg.group_size)

    if scripted:
        Trainer.make_engine = make_engine
    captured = {}
    original_train = Trainer.train

    def train(self):
        result = original_train(self)
        captured["state"] = full_parameters(self.model)
        return result

    Trainer.train = train
    rc = main(argv)
    rank = int(os.environ.get("RANK", "0"))
    torch.save(captured.get("state"), os.path.join(dump_dir, f"params-rank{rank}.pt"))
    return rc


if __name__ == "__main__":
    sep = sys.argv.index("--")
    # On SIGUSR1 (a launch that timed out) every thread's stack goes to the dump folder. The
    # file stays open until the process ends: a hang at exit dumps too.
    rank = os.environ.get("RANK", "0")
    stacks = open(os.path.join(sys.argv[1], f"stack-rank{rank}.txt"), "w")  # noqa: SIM115
    faulthandler.register(signal.SIGUSR1, file=stacks, all_threads=True)
    # --model-engine: roll out with the trainer's own engine (the policy decodes), not the
    # scripted one; still deterministic, since every sampling seed derives from the step.
    sys.exit(run(sys.argv[1], sys.argv[sep + 1:], scripted="--model-engine" not in sys.argv[:sep]))
