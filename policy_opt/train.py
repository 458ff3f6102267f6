"""``python -m policy_opt.train``: GRPO, Dr.GRPO and GSPO on a verifier-backed environment.

One step::

    1. sample B prompt seeds; roll out G episodes per prompt    -> Episode x (B*G)
    2. rewards r [B*G] from the env (verifiers)                 -> advantages A [B*G]
    3. old log-probs  logp_old [B*G, L] (if several optimiser   -> ref log-probs if beta > 0
       steps share the batch: mu > 1 or minibatches > 1)
    4. mu passes x minibatches: logp [n, L] -> policy_loss -> backward -> clip -> AdamW step
    5. sync the rollout engine, log metrics, evaluate, checkpoint

Every random choice of step k is derived from (seed, k), so a run resumed from the
checkpoint of step k repeats the uninterrupted run's step k+1 exactly.

Example::

    python -m policy_opt.train --env arithmetic --algo gspo --max-steps 40 --out runs/demo
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence, Sized
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from policy_opt.advantages import group_advantages
from policy_opt.batching import (  # noqa: F401  (Batch, pack_episodes...: importable from here)
    MICRO_BATCH_OVERHEAD,
    Batch,
    micro_batch_rows,
    minibatch_order,
    pack_episodes,
    plan_micro_batches,
    prompts_shared,
)
from policy_opt.checkpoint import (
    best_checkpoint,
    full_state_dicts,
    latest_checkpoint,
    load_full_state_dicts,
    load_model_weights,
    load_trainer_state,
    mark_best,
    optimizer_state_for,
    prune_checkpoints,
    save_checkpoint,
)
from policy_opt.config import ConfigError, TrainConfig, parse_config, small_model_note
from policy_opt.distributed import (
    DistInfo,
    any_rank,
    barrier,
    gather_objects,
    init_distributed,
    max_over_ranks,
    mean_over_ranks,
    shutdown,
    unsharded,
    wrap_model,
)
from policy_opt.evaluate import episode_correct
from policy_opt.interrupt import GracefulStop, StopNow
from policy_opt.logprobs import token_logprobs
from policy_opt.losses import policy_loss, resolve_config
from policy_opt.rollout import Episode, collect_episodes
from policy_opt.run_folder import check_out, clear_run


class TrainingError(RuntimeError):
    """Training cannot go on (NaN loss, empty dataset, ...); the message says what to do."""


# --------------------------------------------------------------------------- log-probs


def completion_logprobs(model: torch.nn.Module, batch: Batch, micro_batch_size: int = 0,
                        group_size: int = 1, shared: bool | None = None) -> torch.Tensor:
    """log pi(o_t | q, o_<t) of every completion token: [N, L] float32.

    When the G rows of a group share their prompt (``group_size`` > 1), the prompt is run
    once per group and its key/value cache is repeated for the G completions: the same
    values and gradients as running it G times (the cache stays in the autograd graph, so
    the prompt's gradient sums over the group), at 1/G of the prompt's cost. Long prompts
    (GSM8K in bytes: ~400 tokens against ~16 generated) make this the step's main saving.

    Only the completion positions' logits are computed (``logits_to_keep``), and the sampled
    tokens' log-probs are gathered chunk by chunk (policy_opt.logprobs) so the full
    [N, L, V] log-softmax never exists.

    ``shared``: whether the groups share their prompts, when the caller already knows it
    (the check reads the answer back from the device).
    """
    from policy_opt.engine import _forward_kwarg_names

    n, length = batch.completion_ids.shape
    if shared is None:
        shared = prompts_shared(batch, group_size)
    g = group_size if shared else 1
    step = max(g, (micro_batch_size or n) // g * g)
    # transformers 5 renamed past_key_values to cache (and warns on the old name); a DDP or
    # FSDP wrapper hides the signature, so look at the module it wraps.
    cache_kw = _forward_kwarg_names(getattr(model, "module", model))[0] if g > 1 else ""
    out = []
    for s in range(0, n, step):
        mb = batch.rows(slice(s, s + step))
        if g > 1:
            out.append(_shared_prompt_logprobs(model, mb, g, cache_kw))
            continue
        logits = model(input_ids=mb.input_ids, attention_mask=mb.attention_mask,
                       position_ids=mb.position_ids, logits_to_keep=length + 1,
                       use_cache=False).logits
        out.append(token_logprobs(logits[:, :-1], mb.completion_ids, check_values=False))
    return torch.cat(out)


def _shared_prompt_logprobs(model: torch.nn.Module, mb: Batch, g: int,
                            cache_kw: str) -> torch.Tensor:
    from transformers import DynamicCache

    length = mb.completion_ids.shape[1]
    p = mb.input_ids.shape[1] - length
    lead = slice(None, None, g)
    prompt = model(input_ids=mb.input_ids[lead, :p], attention_mask=mb.attention_mask[lead, :p],
                   position_ids=mb.position_ids[lead, :p], **{cache_kw: DynamicCache()},
                   use_cache=True, logits_to_keep=1)
    # The output's field is named like the forward's keyword (reading the old name warns).
    cache = getattr(prompt, cache_kw)
    cache.batch_repeat_interleave(g)
    # The prompt's last position predicts the first completion token.
    # The ids index this model's embedding already: no range check (a read from the device).
    first = token_logprobs(prompt.logits.repeat_interleave(g, dim=0), mb.completion_ids[:, :1],
                           check_values=False)
    if length == 1:
        return first
    logits = model(input_ids=mb.completion_ids[:, :-1], attention_mask=mb.attention_mask[:, :-1],
                   position_ids=mb.position_ids[:, p:-1], **{cache_kw: cache},
                   use_cache=True).logits
    return torch.cat([first, token_logprobs(logits, mb.completion_ids[:, 1:],
                                            check_values=False)], dim=1)


# --------------------------------------------------------------------------- metrics


def episode_stats(ep: Episode) -> tuple[float | None, int, bool, bool, bool, float | None]:
    """(reward, model tokens, correct, truncated, length cut, surprisal): what the step
    metrics need of an episode. The surprisal is the sum of -log q over the model's sampled
    tokens (q: the distribution they were drawn from), None when the engine kept no log-probs."""
    lp = ep.completion_logprobs
    surprisal = (None if lp is None else
                 -sum(x for x, m in zip(lp, ep.completion_mask) if m))
    return (ep.reward, sum(ep.completion_mask), episode_correct(ep),
            bool(ep.info.get("truncated")), bool(ep.info.get("length_cut")), surprisal)


def rollout_metrics(stats: Sequence[tuple], group_size: int) -> dict[str, Any]:
    """Batch statistics from ``episode_stats`` tuples in group-major order.

    ``truncated``: episodes the env or the turn limit cut off; ``clipped``: episodes with a
    completion cut at its token limit (``--max-new-tokens`` or the context), which a single-
    turn env still scores: a policy that never emits EOS shows here and not in ``truncated``.
    """
    rewards = [s[0] for s in stats]
    lengths = [s[1] for s in stats]
    correct = [s[2] for s in stats]
    valid = [r for r in rewards if r is not None]
    groups = [rewards[i:i + group_size] for i in range(0, len(rewards), group_size)]
    mixed = sum(1 for g in groups if len({r for r in g if r is not None}) > 1)

    def mean(xs: Sequence[float]) -> float | None:
        return sum(xs) / len(xs) if xs else None

    return {
        "reward_mean": mean(valid) if valid else 0.0,
        "accuracy": mean([float(c) for c in correct]),
        "mixed_groups": mixed / max(1, len(groups)),
        "no_signal": len(rewards) - len(valid),
        "no_signal_frac": (len(rewards) - len(valid)) / max(1, len(rewards)),
        "len_mean": mean(lengths),
        "len_correct": mean([n for n, c in zip(lengths, correct) if c]),
        "len_incorrect": mean([n for n, c in zip(lengths, correct) if not c]),
        "truncated": mean([float(s[3]) for s in stats]),
        "clipped": mean([float(s[4]) for s in stats]),
        "entropy": _entropy(stats),
    }


def _entropy(stats: Sequence[tuple]) -> float | None:
    """Per-token entropy of the sampling distribution, estimated as the mean surprisal of the
    sampled tokens (E_q[-log q] = H(q); TRL computes it exactly from the logits, which our
    log-prob pass never materialises). None when an engine kept no log-probs."""
    known = [(s[5], s[1]) for s in stats if len(s) > 5 and s[5] is not None]
    tokens = sum(n for _, n in known)
    if not known or len(known) < len(stats) or not tokens:
        return None
    return sum(x for x, _ in known) / tokens


def check_rewards(episodes: Sequence[Episode], env: str) -> None:
    """Raise TrainingError when an episode's reward is NaN or infinite.

    Such a reward has no meaning to learn from, and passed on it would make every advantage
    of its group NaN (or, in the held-out metrics, a NaN mean); "no signal" has its own way
    to be said (``info["no_signal"] = True``), which the trainer skips.
    """
    for e in episodes:
        if e.reward is not None and not math.isfinite(e.reward):
            row = e.info.get("row_id")
            raise TrainingError(
                f"--env {env!r} returned a reward of {e.reward} (prompt group {e.group}"
                f"{f', row {row!r}' if row is not None else ''}); rewards must be finite "
                "numbers. An env with no verdict for an answer sets info['no_signal'] = True "
                "instead.")


# --------------------------------------------------------------------------- the trainer


def resolve_device(name: str, info: DistInfo | None = None) -> torch.device:
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError(f"--device {name}: CUDA is not available on this machine")
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and info is not None and info.enabled:
        return torch.device("cuda", info.local_rank)
    return torch.device(name)


SUBNORMAL_BITS = 0x000AE398
"""The float32 bit pattern of 1e-39, a subnormal number."""


def flush_denormals() -> bool:
    """Make CPU float arithmetic treat subnormal numbers as zero (x86 FTZ/DAZ, Arm FZ).

    Near-zero softmax probabilities (attention, and the vocabulary softmax in the backward
    pass) underflow into the subnormal range, where x86 computes each operation in microcode:
    a matmul over such probabilities ran 5x slower in the default model's decoding. Next to
    the normal-sized terms of the same sums, 0 in place of a number below 1.2e-38 is lost in
    float32 rounding anyway.

    The flag is per thread: torch's intra-op worker threads copy it when they start, so call
    this before the first parallel op of the process. Returns whether every worker follows it
    (False also where the CPU has no such mode).
    """
    if not torch.set_flush_denormal(True):
        return False
    # Written and read as bits: with the mode on, converting 1e-39 to float32 would already
    # give 0, and a float comparison would read a subnormal as 0. Each worker takes a slice
    # of the product (elementwise grain: 32,768).
    tiny = torch.full((torch.get_num_threads() * 65536,), SUBNORMAL_BITS, dtype=torch.int32)
    return not bool((tiny.view(torch.float32) * 1.0).view(torch.int32).any())


def resolve_dtype(name: str, device: torch.device) -> torch.dtype:
    """The parameters' dtype for ``--dtype name`` (bf16-mixed keeps float32 parameters)."""
    if name == "bf16-mixed":
        return torch.float32
    if name == "auto":
        if device.type == "cuda" and torch.cuda.is_bf16_supported():
            return torch.bfloat16
        return torch.float32
    return {"float32": torch.float32, "bfloat16": torch.bfloat16}[name]


def resolve_autocast(name: str, device: torch.device) -> torch.dtype | None:
    """The autocast dtype for ``--dtype name``: bfloat16 for bf16-mixed, else None (the
    parameters' own dtype is the compute dtype)."""
    if name != "bf16-mixed":
        return None
    if device.type == "cuda" and not torch.cuda.is_bf16_supported():
        raise ConfigError("--dtype bf16-mixed: this GPU does not support bfloat16")
    return torch.bfloat16


def lr_factor(cfg: TrainConfig, step: int, time_spent: float = 0.0) -> float:
    """Multiplier on ``cfg.lr`` for the optimiser updates of step ``step`` (0-based).

        warm-up:  f = (step + 1) / warmup_steps                      while step < warmup_steps
        after:    p = max((step - warmup_steps) / (max_steps - warmup_steps), time_spent)
                  f = 1 (constant) | 1 - p (linear) | (1 + cos(pi p)) / 2 (cosine)

    ``time_spent`` is the fraction of ``--max-minutes`` already used (0 without a minutes
    budget). The schedule decays over whichever budget ends first: a run cut short by the clock
    otherwise stops at full learning rate, because ``max_steps`` (left large when the clock is
    the real limit) is never reached. Pure, so a resumed run recomputes its rate from the step.
    """
    if cfg.warmup_steps and step < cfg.warmup_steps:
        return (step + 1) / cfg.warmup_steps
    if cfg.lr_schedule == "constant":
        return 1.0
    span = max(1, cfg.max_steps - cfg.warmup_steps)
    p = min(1.0, max((step - cfg.warmup_steps) / span, time_spent))
    if cfg.lr_schedule == "linear":
        return 1.0 - p
    return 0.5 * (1.0 + math.cos(math.pi * p))


def resolve_max_turns(flag: int, env: str, env_turns: Any) -> tuple[int, str | None]:
    """The turn limit of an episode and a note for the log (or None).

    ``flag`` is ``--max-turns`` (0: the env's own); ``env_turns`` is the env's declared
    ``max_turns`` (None when an env of the user's declares none: one turn, as a single-turn
    env has). A multi-turn env given one turn, or more than its own limit, is noted: the first
    can never use its feedback, and in the second the env truncates first.
    """
    own = env_turns if isinstance(env_turns, int) and not isinstance(env_turns, bool) \
        and env_turns >= 1 else None
    if not flag:
        return own or 1, None
    if own is not None and own > 1 and flag == 1:
        return 1, (f"note: --max-turns 1 gives --env {env!r} one turn of its {own}: it never "
                   "answers the env's feedback; leave --max-turns out to use the env's own limit")
    if own is not None and flag > own:
        return flag, (f"note: --max-turns {flag} is above --env {env!r}'s own limit ({own}); "
                      f"its episodes end after {own} turns")
    return flag, None


def step_seed(seed: int, step: int, salt: str) -> int:
    """A 31-bit seed derived from (seed, step, salt); stable across machines and processes."""
    return random.Random(f"{seed}:{step}:{salt}").randrange(2**31)


class Trainer:
    """Holds the policy, optimiser and engine; ``train()`` runs the loop of the module doc."""

    def __init__(self, cfg: TrainConfig, log=print):
        from envs import make as make_env
        from policy_opt.model import load_policy
        from tasks.registry import import_user_module

        self.cfg = cfg
        self.dist = init_distributed(cfg.device)
        self.log = log if self.dist.is_main else (lambda *a, **k: None)
        for name in ("prompts_per_step", "eval_prompts"):
            if getattr(cfg, name) % self.dist.world:
                raise ConfigError(f"--{name.replace('_', '-')} ({getattr(cfg, name)}) must be "
                                  f"divisible by the number of ranks ({self.dist.world})")
        if cfg.threads:
            torch.set_num_threads(cfg.threads)
        self.denormals_flushed = cfg.flush_denormal and flush_denormals()
        if cfg.flush_denormal and not self.denormals_flushed:
            self.log("note: --flush-denormal is not in effect on every torch thread (a CPU "
                     "without the mode, or threads started before the trainer), so steps "
                     "run slower")
        if cfg.temperature == 0:
            self.log(f"note: --temperature 0 decodes greedily, so the {cfg.group_size} "
                     "completions of a group are identical: every advantage is 0 and only an "
                     "env with random replies gives a learning signal")
        torch.manual_seed(cfg.seed)
        self.device = resolve_device(cfg.device, self.dist)
        self.dtype = resolve_dtype(cfg.dtype, self.device)
        # bf16-mixed: float32 master weights, bfloat16 compute. Sharded by FSDP2, the
        # MixedPrecisionPolicy casts the gathered parameters (and reduces gradients in
        # float32); in one process or under DDP, autocast does it.
        fsdp = cfg.strategy == "fsdp" and self.dist.enabled
        self.mixed_precision = "bf16" if fsdp and cfg.dtype == "bf16-mixed" else "none"
        self.autocast_dtype = None if fsdp else resolve_autocast(cfg.dtype, self.device)

        # The user's modules register their tasks; import them before --env is looked up.
        for module in filter(None, (m.strip() for m in cfg.module.split(","))):
            try:
                import_user_module(module)
            except ImportError as err:
                raise ConfigError(f"--module {err}") from None
        env_kwargs = {"path": cfg.path} if cfg.path else {}
        # Fail on a bad --env or unreadable data (both splits) before loading the model.
        probe_prompts = []
        for split in ("train", "test"):
            try:
                probe = make_env(cfg.env, split=split, **env_kwargs)
                probe_prompts.append(probe.reset(seed=0)[0])
            except (KeyError, ValueError, ImportError, OSError) as err:
                raise ConfigError(f"--env {cfg.env!r} ({split} split): {err}") from err
            except Exception as err:  # a module:Class env is user code and may raise anything
                raise ConfigError(f"--env {cfg.env!r} ({split} split) failed to start: "
                                  f"{type(err).__name__}: {err}") from err
            runs_code = bool(getattr(getattr(probe.unwrapped, "task", None), "runs_code", False))
            if split == "train":
                env_turns = getattr(probe.unwrapped, "max_turns", None)
            held_out = getattr(probe.unwrapped, "rows", None) if split == "test" else None
            if isinstance(held_out, Sized) and 0 < len(held_out) < cfg.eval_prompts:
                # Each held-out prompt is a seeded draw from the split, so more prompts than
                # rows measure the same rows again, not a larger sample.
                self.log(f"note: --eval-prompts {cfg.eval_prompts} is more than the "
                         f"{len(held_out)} rows of --env {cfg.env!r}'s held-out split; rows "
                         "repeat in every evaluation")
            probe.close()
        self.env_workers = cfg.env_workers or (4 if runs_code else 1)
        self.max_turns, note = resolve_max_turns(cfg.max_turns, cfg.env, env_turns)
        if note:
            self.log(note)
        self.loss_cfg = resolve_config(cfg.algo, beta=cfg.beta, eps_low=cfg.eps_low,
                                       eps_high=cfg.eps_high,
                                       norm=None if cfg.loss_norm == "preset" else cfg.loss_norm,
                                       adv_scale=None if cfg.adv_scale == "preset" else cfg.adv_scale,
                                       max_completion_length=cfg.max_new_tokens * self.max_turns)
        self.make_train_env = lambda: make_env(cfg.env, split="train", **env_kwargs)
        self.make_eval_env = lambda: make_env(cfg.env, split="test", **env_kwargs)

        try:
            self.model, self.tokenizer = load_policy(cfg.model, dtype=self.dtype,
                                                     device=self.device)
        except (OSError, ValueError) as err:
            raise ConfigError(f"--model {cfg.model!r}: {err}") from err
        self.check_context(probe_prompts)
        self.peft = None  # the PeftModel that saves and loads the adapters (--lora-r)
        if cfg.lora_r:
            from policy_opt.lora import add_adapters

            if self.dist.enabled and cfg.strategy == "fsdp":
                raise ConfigError("--lora-r with --strategy fsdp is not supported; use ddp")
            # In place: self.model stays the transformers model, now with LoRA layers.
            self.peft = add_adapters(self.model, cfg.lora_r, cfg.lora_alpha or 2.0 * cfg.lora_r,
                                     cfg.lora_target)
        self.ref_model = None
        if self.loss_cfg.beta > 0:
            # A frozen copy of the initial policy; never built when beta == 0.
            import copy

            self.ref_model = copy.deepcopy(self.model).eval().requires_grad_(False)
        # The module training forward/backward goes through (DDP / FSDP2 under torchrun).
        self.policy = wrap_model(self.model, self.dist, cfg.strategy, self.mixed_precision)
        if self.ref_model is not None and cfg.strategy == "fsdp":
            # Sharded as the policy is: a full frozen copy on every rank is what FSDP2 avoids.
            wrap_model(self.ref_model, self.dist, cfg.strategy, self.mixed_precision)
        # Frozen weights (LoRA's base) get no optimiser state.
        self.optimizer = torch.optim.AdamW([p for p in self.model.parameters() if p.requires_grad],
                                           lr=cfg.lr,
                                           weight_decay=cfg.weight_decay)
        self.time_spent = 0.0  # fraction of --max-minutes used; set by train() each step
        self.clock = time.perf_counter  # the minutes budget's clock (a seam for tests)
        # Training seconds on the budget's clock: those of earlier runs (restored by --resume,
        # so the budget is the whole run's, not each process's) until train() starts the clock.
        self.seconds_before = 0.0
        self.clock_started: float | None = None
        self.engine = self.make_engine()
        self.out = Path(cfg.out)
        self.start_step = 0
        self.last_checkpoint: Path | None = None
        self.last_eval: tuple[int, float] | None = None  # (step, held-out greedy accuracy)
        self.stop = GracefulStop(enabled=False)  # train() installs the signal handlers
        self.interrupted = 0  # 128 + the signal that stopped the run, else 0

    def check_context(self, prompts: Sequence[Sequence[dict]]) -> None:
        """Raise ConfigError when the env's (probe) prompts and --max-new-tokens do not fit
        the model's context: generation would stop short of what was asked, every time."""
        from policy_opt.engine import context_length
        from policy_opt.rollout import ChatRenderer

        context = context_length(self.model)
        if context is None:
            return
        renderer = ChatRenderer(self.tokenizer)
        longest = max(len(renderer.encode(renderer.render(m, generation_prompt=True),
                                          first=True)) for m in prompts)
        if longest + self.cfg.max_new_tokens > context:
            room = context - longest
            fix = (f"use --max-new-tokens {room} or less" if room > 0
                   else "its prompts alone fill the context")
            raise ConfigError(
                f"--max-new-tokens {self.cfg.max_new_tokens} does not fit --model "
                f"{self.cfg.model!r}: its context is {context} tokens (max_position_embeddings) "
                f"and a prompt of --env {self.cfg.env!r} takes {longest}; {fix}")

    @contextlib.contextmanager
    def prompts_fit(self) -> Any:
        """Turn an engine's ContextOverflow (a prompt longer than the model's context) into
        a TrainingError naming the flags, not a traceback from the decode loop."""
        from policy_opt.engine import ContextOverflow

        try:
            yield
        except ContextOverflow as err:
            raise TrainingError(
                f"a prompt of --env {self.cfg.env!r} does not fit --model {self.cfg.model!r}: "
                f"{err}. Use a model with a longer context or an env with shorter prompts. "
                f"The last good checkpoint is {self.last_checkpoint or '(none yet)'}.") from err

    def make_engine(self) -> Any:
        from policy_opt.engine import TransformersEngine, VLLMEngine

        if self.cfg.engine == "transformers":
            return TransformersEngine(self.model, self.tokenizer)
        if self.cfg.engine == "vllm-server":
            from policy_opt.vllm_server import VLLMServerEngine

            try:
                # Every rank samples its own share over HTTP; only rank 0 sends weights.
                engine = self.with_adapters(VLLMServerEngine(self.cfg.vllm_url,
                                                             send_weights=self.dist.is_main))
                engine.sync_weights(self.model)
            except (ImportError, OSError, RuntimeError, ValueError) as err:
                raise ConfigError(f"--engine vllm-server: {err}") from err
            self.log(f"rollouts on {self.cfg.vllm_url} (serving {engine.model})")
            return engine
        if self.cfg.model == "default":
            from policy_opt.model import default_model_path

            name = str(default_model_path())
        else:
            name = self.cfg.model
        try:
            engine = VLLMEngine(name, dtype=str(self.autocast_dtype or self.dtype)
                                .removeprefix("torch."),
                                seed=self.cfg.seed, tensor_parallel_size=self.cfg.vllm_tp,
                                gpu_memory_utilization=self.cfg.vllm_gpu_memory,
                                sleep_between_phases=self.cfg.vllm_sleep)
        except (ImportError, RuntimeError, ValueError) as err:
            raise ConfigError(f"--engine vllm: {err}") from err
        engine = self.with_adapters(engine)
        engine.sync_weights(self.model)
        return engine

    def with_adapters(self, engine: Any) -> Any:
        """A separate engine (vLLM) syncs the base weights with the adapters merged in."""
        if self.peft is None:
            return engine
        from policy_opt.lora import MergedSync

        return MergedSync(engine)

    # ---------------------------------------------------------------- one step

    def compute_precision(self) -> contextlib.AbstractContextManager:
        """bf16-mixed: forward passes (rollouts, log-probs, evaluation) under bfloat16
        autocast, while parameters, gradients and AdamW state stay float32."""
        if self.autocast_dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, dtype=self.autocast_dtype)

    def rollout(self, step: int) -> list[Episode]:
        """This rank's share of the step's prompts, G episodes each (group-major)."""
        rng = random.Random(step_seed(self.cfg.seed, step, "prompts"))
        seeds = [rng.randrange(2**31) for _ in range(self.cfg.prompts_per_step)]
        self.model.eval()
        with unsharded(self.model, self.dist), self.prompts_fit():
            return collect_episodes(
                self.make_train_env, self.engine, self.tokenizer,
                seeds[self.dist.shard(len(seeds))], self.cfg.group_size,
                max_new_tokens=self.cfg.max_new_tokens, max_turns=self.max_turns,
                temperature=self.cfg.temperature, top_p=self.cfg.top_p,
                seed=step_seed(self.cfg.seed, step, f"sampling:{self.dist.rank}"),
                workers=self.env_workers,
            )

    def advantages(self, episodes: Sequence[Episode]) -> tuple[torch.Tensor, torch.Tensor]:
        """Group advantages [N] and a row mask [N] that drops no-signal (None) rewards.

        A None reward is left out of its group's statistics (policy_opt.advantages), so it
        changes no other member's advantage; its own advantage and row mask are 0.
        """
        raw = [e.reward for e in episodes]
        check_rewards(episodes, self.cfg.env)
        rewards = torch.tensor([0.0 if r is None else float(r) for r in raw], dtype=torch.float64)
        keep = torch.tensor([r is not None for r in raw])
        adv = group_advantages(rewards, group_size=self.cfg.group_size,
                               scale=self.loss_cfg.adv_scale, valid=keep)
        return adv.float(), keep.float()

    def optimise(self, step: int, batch: Batch, adv: torch.Tensor) -> dict[str, float]:
        cfg = self.cfg
        lr = cfg.lr * lr_factor(cfg, step, self.time_spent)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        n = batch.input_ids.shape[0]
        g = cfg.group_size
        # Minibatches and micro-batches hold whole groups, so a group's prompt is run once.
        size = n // cfg.minibatches
        micro = max(g, (cfg.micro_batch_size or size) // g * g)
        active = self.groups_with_signal(batch, adv)
        live = torch.arange(n, device=active.device)[active.repeat_interleave(g)]
        # One pass in one minibatch is on-policy (old = current, detached, saving a forward);
        # any later optimiser step of the same batch needs the rollout policy's log-probs.
        off_policy = cfg.mu > 1 or cfg.minibatches > 1
        # Every micro-batch holds whole groups, so the batch's answer holds for each of them.
        shared = prompts_shared(batch, g)
        old_logp = (self.frozen_logprobs(self.model, batch, live, micro, shared)
                    if off_policy else None)
        ref_logp = (self.frozen_logprobs(self.ref_model, batch, live, micro, shared)
                    if self.ref_model is not None else None)
        self.model.train()
        gen = torch.Generator().manual_seed(step_seed(cfg.seed, step, "minibatches"))
        # Sums stay on the device (float64, added in the order Python floats were) and are
        # read once per optimiser step: no host round trip per micro-batch.
        loss_sum = torch.zeros((), dtype=torch.float64, device=batch.device)
        sums: dict[str, float] = {}
        count = 0
        # policy_loss's ratio/clip metrics, over trained rows
        ratios: dict[str, torch.Tensor] = {}
        trained = 0  # minibatches that trained at least one row
        for _ in range(cfg.mu):
            order = minibatch_order(n // g, g, gen, batch.device)
            for m in range(cfg.minibatches):
                idx = order[m * size:(m + 1) * size]
                num_tokens = batch.completion_mask[idx].sum()
                idx = idx[active[idx // g]]  # the skipped rows' loss and gradient are 0
                parts = self.micro_batches(batch, idx, micro)
                self.optimizer.zero_grad(set_to_none=True)
                finite = torch.ones((), dtype=torch.bool, device=batch.device)
                for part, (rows, width) in enumerate(parts):
                    mb = batch.rows(rows).trimmed(width)
                    width = mb.completion_ids.shape[1]
                    last = part == len(parts) - 1
                    # DDP all-reduces gradients on the last micro-batch only.
                    sync = (self.policy.no_sync() if hasattr(self.policy, "no_sync") and not last
                            else contextlib.nullcontext())
                    with sync:
                        with self.compute_precision():  # forward only, not the backward
                            logp = completion_logprobs(self.policy, mb, group_size=g,
                                                       shared=shared)
                        token_mean = self.loss_cfg.norm == "token_mean"
                        loss, metrics = policy_loss(
                            logp, None if old_logp is None else old_logp[rows, :width], adv[rows],
                            mb.completion_mask, config=self.loss_cfg,
                            ref_logp=None if ref_logp is None else ref_logp[rows, :width],
                            num_tokens=num_tokens if token_mean else None, check_values=False,
                        )
                        # Row-mean norms: this micro-batch's share of the minibatch's mean.
                        share = 1.0 if token_mean else len(rows) / size
                        # A non-finite loss is caught before the optimiser steps (below).
                        (loss * share).backward()
                    finite &= torch.isfinite(loss.detach())
                    for k, v in metrics.items():
                        ratios[k] = ratios.get(k, 0.0) + v.double() * len(rows) / len(idx)
                    loss_sum += loss.detach().double() * share
                if any_rank(not finite.item(), self.dist):
                    raise TrainingError(
                        f"the loss became non-finite at step {step}; stopping. The last good "
                        f"checkpoint is {self.last_checkpoint or '(none written yet)'}. Lower "
                        "--lr, keep --grad-clip on, or check the rewards.")
                if len(idx) == 0:
                    # No group has signal: the gradient is exactly 0, and AdamW still steps
                    # (its momentum moves the weights), as it would have without the skip.
                    for p in self.model.parameters():
                        if p.requires_grad:
                            p.grad = torch.zeros_like(p)
                sums["rows_trained"] = sums.get("rows_trained", 0.0) + len(idx) / size
                trained += len(idx) > 0
                grad_norm = torch.nn.utils.clip_grad_norm_(
                    self.model.parameters(), cfg.grad_clip if cfg.grad_clip > 0 else float("inf"))
                if any_rank(not torch.isfinite(grad_norm).item(), self.dist):
                    raise TrainingError(
                        f"the gradient norm became {grad_norm.item()} at step {step}; stopping. "
                        f"The last good checkpoint is {self.last_checkpoint or '(none yet)'}.")
                sums["grad_norm"] = sums.get("grad_norm", 0.0) + grad_norm.item()
                self.optimizer.step()
                count += 1
        sums = {"loss": loss_sum.item(), **sums}
        out = mean_over_ranks({k: v / count for k, v in sums.items()}, self.dist)
        if trained:
            read = dict(zip(ratios, torch.stack(list(ratios.values())).tolist()))
            out.update(mean_over_ranks({k: v / trained for k, v in read.items()}, self.dist))
        else:  # every group was skipped: no ratio was computed
            out.update(dict.fromkeys(("clip_frac_low", "clip_frac_high", "clip_frac",
                                      "ratio_mean")))
        return out

    @torch.no_grad()
    def frozen_logprobs(self, model: torch.nn.Module, batch: Batch, idx: torch.Tensor,
                        micro: int, shared: bool | None = None) -> torch.Tensor:
        """[N, L] log-probs of ``model`` before the update, on rows ``idx`` only (the rows
        the loss will see; the others stay 0)."""
        model.eval()
        out = torch.zeros(batch.completion_ids.shape, dtype=torch.float32,
                          device=batch.completion_ids.device)
        for rows, width in self.micro_batches(batch, idx, micro):
            mb = batch.rows(rows).trimmed(width)
            with self.compute_precision():
                out[rows, :mb.completion_ids.shape[1]] = completion_logprobs(
                    model, mb, group_size=self.cfg.group_size, shared=shared)
        return out

    def micro_batches(self, batch: Batch, idx: torch.Tensor,
                      micro: int) -> list[tuple[torch.Tensor, int]]:
        """``idx`` (whole groups) cut into micro-batches of at most ``micro`` rows of similar
        completion length: (rows, longest completion) each
        (:func:`policy_opt.batching.micro_batch_rows`)."""
        # Every rank must run the same number of passes (each one meets collectives), and
        # ranks hold different lengths: fixed-size cuts there.
        return micro_batch_rows(batch, idx, self.cfg.group_size, micro,
                                fixed_cuts=self.dist.world > 1)

    def groups_with_signal(self, batch: Batch, adv: torch.Tensor) -> torch.Tensor:
        """[N / G] bool: the groups whose rows can have a non-zero loss gradient.

        Without a KL term a row's loss is ``-min(r A, clip(r) A)``, identically 0 when A = 0,
        and a group whose rewards are all equal has A = 0 on every row: its forward and
        backward passes can be skipped (their share of the normaliser is kept, so the loss and
        gradient are exactly those of the full batch). Under torchrun every rank must run the
        same backward passes for the gradient all-reduce, so nothing is skipped there.
        """
        g = self.cfg.group_size
        n = len(adv)
        if self.loss_cfg.beta > 0 or self.dist.world > 1:
            return torch.ones(n // g, dtype=torch.bool, device=adv.device)
        live = (adv != 0) & (batch.completion_mask.sum(dim=1) > 0)
        return live.view(n // g, g).any(dim=1)

    def train_step(self, step: int) -> dict[str, Any]:
        t0 = time.perf_counter()
        with self.stop.abortable(), self.compute_precision():
            # a signal here stops the run at the last finished step
            episodes = self.rollout(step)
        if hasattr(self.engine, "sleep"):
            self.engine.sleep()  # vLLM's memory goes back to the optimisation phase
        t1 = time.perf_counter()
        adv, keep = self.advantages(episodes)
        batch = pack_episodes(episodes, self.tokenizer.pad_token_id).to(self.device)
        batch.completion_mask = batch.completion_mask * keep.to(self.device)[:, None]
        metrics = self.optimise(step, batch, adv.to(self.device))
        self.engine.sync_weights(self.model)
        t2 = time.perf_counter()
        stats = [x for part in gather_objects([episode_stats(e) for e in episodes], self.dist)
                 for x in part]
        generated = sum(x[1] for x in stats)
        return {
            "kind": "train", "step": step + 1, **rollout_metrics(stats, self.cfg.group_size),
            **metrics, "lr": self.optimizer.param_groups[0]["lr"],
            "tokens_per_s": generated / max(t1 - t0, 1e-9),
            "time_rollout": t1 - t0, "time_optimise": t2 - t1, "time_step": t2 - t0,
        }

    def evaluate(self, step: int, *, keep_rows: bool = False) -> dict[str, Any]:
        """Greedy accuracy, sampled accuracy (mean@k) and pass@k on held-out prompts (fixed
        seeds, so comparable between evaluations); see policy_opt.evaluate. ``keep_rows``
        adds ``rows``: every prompt's completions and verdicts (gathered to every rank)."""
        from policy_opt.evaluate import (
            eval_rollouts,
            held_out_seeds,
            row_records,
            summarise,
            verdicts,
        )

        cfg = self.cfg
        seeds = held_out_seeds(cfg.eval_prompts)[self.dist.shard(cfg.eval_prompts)]
        self.model.eval()
        with unsharded(self.model, self.dist), self.prompts_fit(), self.compute_precision():
            ran = eval_rollouts(self.make_eval_env, self.engine, self.tokenizer, seeds,
                                k=cfg.eval_k, max_new_tokens=cfg.max_new_tokens,
                                max_turns=self.max_turns, temperature=cfg.temperature,
                                top_p=cfg.top_p, seed=cfg.seed,
                                sample_seed=cfg.seed + 1 + self.dist.rank,
                                workers=self.env_workers)
        check_rewards(ran.greedy + ran.sampled, cfg.env)
        result = {"kind": "eval", "step": step, "k": cfg.eval_k,
                  **summarise(gather_objects(verdicts(ran), self.dist), cfg.eval_k)}
        if keep_rows:
            result["rows"] = [r for part in gather_objects(row_records(ran), self.dist)
                              for r in part]
        return result

    # ---------------------------------------------------------------- bookkeeping

    def checkpoint(self, step: int) -> None:
        """Rank 0 writes; under FSDP every rank first joins in gathering the full state."""
        model_state, optim_state = full_state_dicts(self.model, self.optimizer, self.dist,
                                                     self.cfg.strategy)
        if self.dist.is_main:
            state = {"step": step, "optimizer": optim_state,
                     "config": asdict(self.cfg), "train_seconds": self.train_seconds()}
            # With LoRA, peft's save_pretrained writes the adapters only.
            self.last_checkpoint = save_checkpoint(self.out, step, self.peft or self.model,
                                                   self.tokenizer, state, model_state=model_state)
            self.keep_checkpoints(step)
        else:
            self.last_checkpoint = self.out / "checkpoints" / f"step-{step:06d}"
        barrier(self.dist)

    def keep_checkpoints(self, step: int) -> None:
        """Mark the checkpoint just written best when its step's held-out accuracy beats the
        marked one's, then delete all but the newest --keep-checkpoints and the best."""
        if self.last_eval is not None and self.last_eval[0] == step:
            best = best_checkpoint(self.out)
            if best is None or self.last_eval[1] > best[1]:
                mark_best(self.out, self.last_checkpoint, self.last_eval[1])
        prune_checkpoints(self.out, self.cfg.keep_checkpoints)

    def maybe_resume(self, metrics_path: Path) -> None:
        folder = latest_checkpoint(self.out)
        if folder is None:
            raise ConfigError(f"--resume: no checkpoint in {self.out / 'checkpoints'}")
        try:
            state = load_trainer_state(folder)
            self.check_resumed_config(state.get("config"), folder)
            if int(state["step"]) > self.cfg.max_steps:
                # Going on would overwrite the newer checkpoint with an older step's number.
                raise ConfigError(f"--max-steps ({self.cfg.max_steps}) is below the step of the "
                                  f"checkpoint to resume ({state['step']}, {folder})")
            if self.cfg.strategy == "fsdp" and self.dist.enabled:
                load_full_state_dicts(self.model, self.optimizer, folder, state["optimizer"],
                                      self.dist)
            else:
                if self.peft is not None:
                    from policy_opt.lora import load_adapters

                    load_adapters(self.peft, folder)
                else:
                    load_model_weights(self.model, folder)
                self.optimizer.load_state_dict(
                    optimizer_state_for(self.model, state["optimizer"], by_name=False))
        except ConfigError:
            raise
        except Exception as err:  # a truncated or foreign file: say which, not a torch traceback
            raise ConfigError(f"--resume: checkpoint {folder} cannot be loaded "
                              f"({type(err).__name__}: {err})") from err
        self.start_step = int(state["step"])
        self.seconds_before = float(state.get("train_seconds", 0.0))
        self.last_checkpoint = folder
        self.engine.sync_weights(self.model)
        # Drop records written after the checkpoint so the resumed run appends cleanly.
        if metrics_path.exists() and self.dist.is_main:
            kept = [line for line in metrics_path.read_text(errors="replace").splitlines()
                    if (rec := _json_record(line)) is not None
                    and rec.get("step", 0) <= self.start_step]
            metrics_path.write_text("".join(line + "\n" for line in kept))
        self.log(f"resumed from {folder} at step {self.start_step} "
                 f"({self.seconds_before / 60:.1f} training minutes spent)")

    def check_resumed_config(self, saved: dict[str, Any] | None, folder: Path) -> None:
        """Refuse to resume a checkpoint of another env, algorithm or model; note any other
        setting that differs from the checkpoint's.

        The checkpoint's weights replace the --model's, so a different --model would be
        ignored (or fail on a shape mismatch), and another --env or --algo would append a
        different experiment to the same metrics and curves.
        """
        if not isinstance(saved, dict):
            return
        now = asdict(self.cfg)
        for name in ("env", "algo", "model"):
            before, after = saved.get(name), now[name]
            if name == "model":
                before, after = _model_key(before), _model_key(after)
            if before is not None and before != after:
                flag = "--" + name
                raise ConfigError(
                    f"--resume: the checkpoint {folder} was trained with {flag} "
                    f"{saved[name]!r}, not {now[name]!r}; resume with {flag} {saved[name]!r}, "
                    "or start the new run in another --out")
        # Longer runs and other bookkeeping are what resuming is for; anything else changes
        # the experiment part-way and is worth a line in the log. (The model, checked above,
        # may be spelled as another path to the same folder.)
        routine = {"resume", "max_steps", "max_minutes", "eval_every", "save_every", "threads",
                   "device", "env_workers", "out", "model", "overwrite", "keep_checkpoints",
                   "report_to"}
        changed = [f"{_flag_name(k)} {saved[k]!r} -> {now[k]!r}" for k in now
                   if k in saved and k not in routine and saved[k] != now[k]]
        if changed:
            self.log("note: resuming with settings that differ from the checkpoint's: "
                     + ", ".join(changed))

    def train_seconds(self) -> float:
        """Seconds of training so far, earlier runs of a resumed run included."""
        if self.clock_started is None:
            return self.seconds_before
        return self.clock() - self.clock_started

    def train(self) -> Path:
        from tqdm.auto import tqdm

        from policy_opt.plots import plot_run
        from policy_opt.reporting import check_available, make_reporter

        cfg = self.cfg
        main_rank = self.dist.is_main
        metrics_path = self.out / "metrics.jsonl"
        check_out(self.out, resume=cfg.resume, overwrite=cfg.overwrite)
        check_available(cfg.report_to)
        if main_rank:
            if cfg.overwrite and (removed := clear_run(self.out)):
                self.log(f"--overwrite: removed {', '.join(removed)} of the run in {self.out}")
            self.out.mkdir(parents=True, exist_ok=True)
        barrier(self.dist)
        if cfg.resume:
            self.maybe_resume(metrics_path)
        elif metrics_path.exists() and main_rank:
            metrics_path.unlink()
        if main_rank:
            (self.out / "config.json").write_text(json.dumps(asdict(cfg), indent=2) + "\n")
        reporter = make_reporter(cfg.report_to if main_rank else "none", self.out, asdict(cfg))

        def record(rec: dict[str, Any]) -> None:
            if main_rank:
                with metrics_path.open("a") as fh:
                    fh.write(json.dumps(rec) + "\n")
                reporter.log(rec)

        def held_out(step: int) -> None:
            with self.stop.abortable():
                ev = self.evaluate(step)
            record(ev)
            self.last_eval = (step, ev["accuracy"])
            self.log(f"step {step} held-out: accuracy {ev['accuracy']:.3f}, "
                     f"pass@{cfg.eval_k} {ev['pass_at_k']:.3f}")
            if main_rank:  # redrawn at every evaluation, so a killed run still has its plot
                plot_run(metrics_path, self.out / "curves.png", title=f"{cfg.algo} on {cfg.env}")

        # Signals are handled in a single-process run (see policy_opt.interrupt).
        self.stop = GracefulStop(enabled=not self.dist.enabled, log=self.log)
        final = self.start_step  # the last finished step
        try:
            with self.stop:
                if self.start_step == 0:
                    held_out(0)
                bar = tqdm(range(self.start_step, cfg.max_steps), initial=self.start_step,
                           total=cfg.max_steps, desc=f"{cfg.algo} on {cfg.env}", unit="step",
                           dynamic_ncols=True, file=sys.stderr, disable=not main_rank)
                self.clock_started = self.clock() - self.seconds_before
                for step in bar:
                    if cfg.max_minutes:
                        # The furthest-along clock decides for all ranks, so they share one
                        # learning rate and stop at the same step (a rank stopping alone would
                        # block the others).
                        spent = self.train_seconds() / (60 * cfg.max_minutes)
                        self.time_spent = max_over_ranks(spent, self.dist)
                    if self.time_spent >= 1.0:
                        self.log(f"--max-minutes {cfg.max_minutes} reached after {step} steps")
                        break
                    rec = self.train_step(step)
                    record(rec)
                    final = done = step + 1
                    bar.set_postfix(reward=f"{rec['reward_mean']:.3f}",
                                    acc=f"{rec['accuracy']:.2f}",
                                    kl=f"{rec.get('kl', 0.0):.4f}",
                                    clip=f"{rec.get('clip_frac') or 0.0:.3f}",
                                    len=f"{rec['len_mean']:.1f}",
                                    tok_s=f"{rec['tokens_per_s']:.0f}")
                    if self.stop.requested:
                        break
                    if cfg.eval_every and done % cfg.eval_every == 0 and done < cfg.max_steps:
                        held_out(done)
                    if cfg.save_every and done % cfg.save_every == 0 and done < cfg.max_steps:
                        self.checkpoint(done)
                bar.close()
                if self.start_step < final and not self.stop.requested:
                    held_out(final)
        except StopNow:
            pass
        finally:
            reporter.close()
        self.interrupted = self.stop.exit_code
        if self.interrupted and final == self.start_step and self.last_checkpoint is not None:
            self.log(f"stopped before a step finished; {self.last_checkpoint} is still the "
                     "newest checkpoint")
        else:
            self.checkpoint(final)
        if main_rank:
            png = plot_run(metrics_path, self.out / "curves.png",
                           title=f"{cfg.algo} on {cfg.env}")
            self.log(f"wrote {metrics_path}, {png}, {self.last_checkpoint}")
            if self.interrupted:
                self.log(f"continue with: python -m policy_opt.train --out {self.out} --resume")
        return self.out


def check_model_flag(model: str) -> None:
    """A --model that cannot load (a typo'd folder, a hub id offline) as a ConfigError at
    once, before the env and the model are built."""
    from policy_opt.model import DEFAULT_NAME, check_model_source

    if model != DEFAULT_NAME:
        try:
            check_model_source(model)
        except OSError as err:
            raise ConfigError(f"--model {model!r}: {err}") from err


def _flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def _model_key(model: Any) -> Any:
    """--model as compared between runs: a local path resolved, so ./m and /abs/m agree."""
    from policy_opt.model import DEFAULT_NAME, _looks_local

    if not isinstance(model, str) or model == DEFAULT_NAME or not _looks_local(model):
        return model
    return str(Path(model).expanduser().resolve())


def _json_record(line: str) -> dict | None:
    """A metrics.jsonl line as a dict, or None for a blank or torn line (a crash mid-write)."""
    try:
        rec = json.loads(line)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) else None


def run_command(body: Callable[[list[Trainer]], int | None], stopped: str) -> int:
    """Run a CLI's ``body`` with the exit codes both CLIs share: 0 done (or ``body``'s own
    code), 2 a bad flag (ConfigError), 1 ``stopped`` by a TrainingError, 130 Ctrl-C. ``body``
    appends the Trainer it builds to its argument, so its process group is shut down on
    every path."""
    made: list[Trainer] = []
    try:
        return body(made) or 0
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except TrainingError as err:
        print(f"{stopped}: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for trainer in made:
            shutdown(trainer.dist)


def main(argv: list[str] | None = None) -> int:
    def body(made: list[Trainer]) -> int | None:
        cfg = parse_config(argv)
        check_out(cfg.out, resume=cfg.resume, overwrite=cfg.overwrite)  # before the model loads
        check_model_flag(cfg.model)
        trainer = Trainer(cfg)
        made.append(trainer)
        note = small_model_note(cfg, sum(p.numel() for p in trainer.model.parameters()))
        if note:
            trainer.log(note)
        trainer.train()
        return trainer.interrupted

    return run_command(body, "training stopped")


if __name__ == "__main__":
    sys.exit(main())
