"""The trainer and the engine on a second device, on a CPU-only machine.

The first CUDA step once crashed (``idx[active[idx // g]]``: a CPU index tensor masked by a
CUDA mask) while every CPU test passed. ``tests/virtual_device.py`` gives these tests a
device that is not the CPU and refuses, as CUDA kernels do, every operation that mixes
devices; that module's docstring says why nothing in PyTorch does this off the shelf.

Why this is enough for the crash class: the data lives on the virtual device exactly where it
would live on the GPU (the model, the batch, the advantages, every tensor made with
``device=x.device``), and tensors made without a device are CPU tensors in both cases, so
any mix a GPU run would meet, the virtual run meets too (checked: on the code before the fix
the train step fails with the issue's message). What it cannot catch: code that branches on
``device.type == "cuda"`` (its GPU branch is not run here), GPU random generators (patched
to CPU ones), GPU numerics and memory; ``tests/test_gpu.py`` runs those on a real GPU.

The virtual device also lists each read the host makes of device data (a GPU drains its
queue for each): the optimiser must make none per micro-batch.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

from policy_opt.config import parse_config
from policy_opt.train import Trainer
from tests.virtual_device import (
    VIRTUAL,
    DeviceMismatch,
    VirtualDeviceMode,
    VirtualTensor,
    virtualise_module,
)

TIMING = ("time_rollout", "time_optimise", "time_step", "tokens_per_s")


def test_the_virtual_device_refuses_what_cuda_refuses_and_allows_the_rest():
    with VirtualDeviceMode():
        x = torch.arange(6, device=VIRTUAL)
        assert isinstance(x, VirtualTensor) and x.device == VIRTUAL
        cpu = torch.arange(6)
        with pytest.raises(DeviceMismatch, match="indices should be either on cpu"):
            cpu[x > 2]  # the crash: a device mask on a host tensor
        with pytest.raises(DeviceMismatch, match="same device"):
            x + cpu
        with pytest.raises(DeviceMismatch, match="same device"):
            torch.cat([x, cpu])
        # What CUDA allows: a CPU index into a device tensor, 0-dim CPU scalars, copies.
        assert x[torch.tensor([1, 4])].tolist() == [1, 4]
        assert (x + torch.tensor(1)).tolist() == [1, 2, 3, 4, 5, 6]
        assert x.to("cpu").device.type == "cpu" and cpu.to(x.device).device == VIRTUAL
        assert x[x > 3].tolist() == [4, 5] and int(x.sum().item()) == 15


@contextlib.contextmanager
def on_virtual_device() -> Iterator[None]:
    """The virtual device's mode, with what it cannot do itself patched: a generator of its
    kind (a CPU one instead) and transformers' kernel swap on train()/eval(), which
    validates the device type."""
    import transformers

    real = torch.Generator
    with pytest.MonkeyPatch.context() as patch, VirtualDeviceMode():
        patch.setattr(torch, "Generator", lambda device="cpu": real(
            "cpu" if torch.device(device) == VIRTUAL else device))
        patch.setattr(transformers.PreTrainedModel, "kernels_mode",
                      property(lambda self: None, lambda self, value: None))
        yield


def _virtual_trainer(cfg) -> Trainer:
    trainer = Trainer(cfg, log=lambda *a, **k: None)
    virtualise_module(trainer.model)
    if trainer.ref_model is not None:
        virtualise_module(trainer.ref_model)
    trainer.policy = trainer.model
    trainer.optimizer = torch.optim.AdamW(trainer.model.parameters(), lr=cfg.lr,
                                          weight_decay=cfg.weight_decay)
    trainer.engine.sync_weights(trainer.model)
    trainer.device = VIRTUAL
    return trainer


def _argv(model: Path, out: Path, *extra: str) -> list[str]:
    return ["--model", str(model), "--out", str(out),
            "--prompts-per-step", "2", "--group-size", "3", "--max-new-tokens", "6",
            "--eval-prompts", "2", "--eval-k", "2", "--threads", "1", "--env-workers", "1",
            "--mu", "2", "--minibatches", "2", "--env", "odd_envs:LengthParity", *extra]


@pytest.mark.parametrize("algo,extra", [("grpo", ("--beta", "0.04")), ("gspo", ()),
                                        ("dr_grpo", ("--micro-batch-size", "3"))])
def test_train_step_and_evaluation_run_on_a_second_device(tiny_model, tmp_path, algo, extra):
    """mu=2 and two minibatches (old log-probs), a reference model where beta > 0, micro-
    batches: every index the optimiser builds meets device tensors. The step must also
    compute what the CPU computes (same seeds, same CPU arithmetic underneath)."""
    cfg = parse_config(_argv(tiny_model, tmp_path / "cpu", "--algo", algo, *extra))
    expected = Trainer(cfg, log=lambda *a, **k: None).train_step(0)
    trainer = _virtual_trainer(cfg)
    with on_virtual_device():
        got = trainer.train_step(0)
        ev = trainer.evaluate(1)
    assert all(isinstance(p, VirtualTensor) for p in trainer.model.parameters())
    assert got["rows_trained"] > 0, "no group had signal: the optimiser's indexing never ran"
    for key, want in expected.items():
        if key in TIMING:
            continue
        if isinstance(want, float) and not isinstance(got[key], bool):
            assert math.isclose(got[key], want, rel_tol=1e-4, abs_tol=1e-6), key
        else:
            assert got[key] == want, key
    assert 0.0 <= ev["accuracy"] <= 1.0


@pytest.mark.parametrize("fast_decode,static_cache", [(True, False), (False, False),
                                                      (True, True)])
def test_engine_generates_on_a_second_device(tiny_model, fast_decode, static_cache):
    """The three decode paths (the growing preallocated cache, ``DynamicCache``, the static
    cache that CUDA graphs replay, here eagerly), with shared prompts and rows finishing at
    different steps: the tokens match the CPU's."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from policy_opt.rollout.engine import TransformersEngine

    tok = AutoTokenizer.from_pretrained(tiny_model)
    model = AutoModelForCausalLM.from_pretrained(tiny_model, dtype=torch.float32)
    prompts = [[258, 117, 40], [258, 117, 40], [258, 99], [258, 117, 40, 41, 42]]
    kwargs = dict(max_new_tokens=12, temperature=1.0, seed=3)
    opts = dict(fast_decode=fast_decode, static_cache=static_cache)
    want = TransformersEngine(model, tok, **opts).generate(prompts, **kwargs)
    virtualise_module(model)
    with on_virtual_device():
        got = TransformersEngine(model, tok, **opts).generate(prompts, **kwargs)
    assert [g.token_ids for g in got] == [g.token_ids for g in want]
    assert len({len(g.token_ids) for g in want}) > 1 or all(
        g.finish_reason == "length" for g in want)


def test_the_optimiser_reads_the_device_per_optimiser_step_not_per_micro_batch(tiny_model,
                                                                              tmp_path):
    """Each read from a GPU drains its queue. The same optimisation cut into 1 and into 2
    micro-batches per minibatch must read the device the same number of times (reference
    model, old log-probs, mu=2, two minibatches: every loop of the optimiser runs)."""
    import tests.virtual_device as vd
    from policy_opt.rollout.episodes import Episode
    from policy_opt.training.batching import pack_episodes

    gen = torch.Generator().manual_seed(0)
    episodes = []
    for group, rewards in enumerate(([1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0],
                                     [0.0, 1.0, 1.0])):
        prompt = torch.randint(0, 256, (4 + group,), generator=gen).tolist()
        for r in rewards:
            comp = torch.randint(0, 256, (int(torch.randint(1, 9, (1,), generator=gen)),),
                                 generator=gen).tolist()
            episodes.append(Episode(prompt, comp, [1] * len(comp), r, group))
    reads, parts = {}, {}
    for micro in ("6", "3"):
        cfg = parse_config(_argv(tiny_model, tmp_path / micro, "--algo", "grpo", "--beta",
                                 "0.04", "--micro-batch-size", micro, "--prompts-per-step",
                                 "4"))
        trainer = _virtual_trainer(cfg)
        counted = []

        def plan(*args, real=trainer.micro_batches, counted=counted):
            out = real(*args)
            counted.append(len(out))
            return out

        trainer.micro_batches = plan
        adv, _ = trainer.advantages(episodes)
        batch = pack_episodes(episodes, trainer.tokenizer.pad_token_id)
        with on_virtual_device():
            trainer.optimise(0, batch.to(VIRTUAL), adv.to(VIRTUAL))
            # transformers' own mask code reads the attention mask in every forward pass (TRL
            # meets the same reads); the project's code is what this test holds to account.
            reads[micro] = [r for r in vd.host_reads if r[1].startswith("policy_opt/")]
        parts[micro] = sum(counted)
    assert parts["3"] > parts["6"]  # more forward/backward passes...
    assert reads["3"] == reads["6"]  # ...and not one more read
    # Per optimiser step (4): the kept rows, the plan, the NaN flag, the gradient norm; per
    # step: prompt sharing, the live rows, the frozen passes' plans, the metrics.
    assert 0 < len(reads["6"]) <= 6 * 4 + 8, reads["6"]
