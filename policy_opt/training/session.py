"""The state a training run and an evaluation share (:class:`Session`): built from a
TrainConfig with every flag checked before the model loads, the policy and its optimiser
(DDP/FSDP2-wrapped under torchrun), the envs, the rollout engine, the held-out evaluation,
checkpoints and resuming (those two in policy_opt.training.resume). The loop itself is
:class:`policy_opt.train.Trainer`.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Sequence, Sized
from pathlib import Path
from typing import Any

import torch

from policy_opt.algorithm.batch import Batch
from policy_opt.algorithm.losses import resolve_config
from policy_opt.config import TrainConfig
from policy_opt.errors import ConfigError, TrainingError
from policy_opt.training.distributed import (
    gather_objects,
    init_distributed,
    unsharded,
    wrap_model,
)
from policy_opt.training.evaluation import (
    eval_rollouts,
    held_out_seeds,
    row_records,
    summarise,
    verdicts,
)
from policy_opt.training.metrics import check_rewards
from policy_opt.training.precision import (
    autocast,
    flush_denormals,
    resolve_autocast,
    resolve_device,
    resolve_dtype,
)
from policy_opt.training.resume import Resumable
from policy_opt.training.signals import GracefulStop, signal_point
from policy_opt.training.threads import choose_threads
from policy_opt.training.update import frozen_logprobs, groups_with_signal, micro_batch_plan
from tasks.mixture import parse_mixture


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


class Session(Resumable):
    """The policy, its optimiser, the envs and the rollout engine, built from a TrainConfig
    with every flag checked first; the held-out evaluation; checkpoints and resuming (its
    base, :class:`policy_opt.training.resume.Resumable`).

    :class:`policy_opt.train.Trainer` adds the training loop; ``python -m
    policy_opt.evaluate`` uses a Session alone.
    """

    def __init__(self, cfg: TrainConfig, log=print):
        from envs import make as make_env
        from policy_opt.models import load_policy
        from tasks.registry import import_user_module

        self.cfg = cfg
        self.dist = init_distributed(cfg.device)
        self.log = log if self.dist.is_main else (lambda *a, **k: None)
        for name in ("prompts_per_step", "eval_prompts"):
            if getattr(cfg, name) % self.dist.world:
                raise ConfigError(f"--{name.replace('_', '-')} ({getattr(cfg, name)}) must be "
                                  f"divisible by the number of ranks ({self.dist.world})")
        # Not every core: beside other busy work, one thread per core is many times slower.
        threads, note = choose_threads(cfg.threads)
        torch.set_num_threads(threads)
        if note:
            self.log(note)
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
        # --env is one env or a mixture of tasks (tasks.mixture); each is probed alike.
        self.mixture = parse_mixture(cfg.env)
        self.train_splits: dict[str, str] = {}
        probe_prompts, runs_code, env_turns = [], False, None
        for name in (self.mixture.names if self.mixture else (cfg.env,)):
            shown = (f"--env {name!r}" if self.mixture is None
                     else f"--env {cfg.env!r}, task {name!r}")
            prompts, code, turns = self.probe_env(make_env, name, shown, env_kwargs)
            probe_prompts += prompts
            runs_code = runs_code or code
            if self.mixture is not None and isinstance(turns, int) and turns > 1:
                raise ConfigError(f"--env {cfg.env!r}: {name!r} is a multi-turn env ({turns} "
                                  "turns); a mixture takes single-turn tasks")
            env_turns = turns if env_turns is None else env_turns
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
        # name -> (train env factory, held-out env factory); one entry without a mixture.
        self.task_envs = {name: (functools.partial(make_env, name, split=self.train_splits[name],
                                                   **env_kwargs),
                                 functools.partial(make_env, name, split="test", **env_kwargs))
                          for name in self.mixture.names} if self.mixture else \
            {cfg.env: (self.make_train_env, self.make_eval_env)}

        signal_point("model-load")
        try:
            self.model, self.tokenizer = load_policy(cfg.model, dtype=self.dtype,
                                                     device=self.device)
        except (OSError, ValueError) as err:
            raise ConfigError(f"--model {cfg.model!r}: {err}") from err
        self.check_context(probe_prompts)
        self.peft = None  # the PeftModel that saves and loads the adapters (--lora-r)
        if cfg.lora_r:
            from policy_opt.models.lora import add_adapters

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
        self.first_eval: float | None = None  # the first evaluation's accuracy (step 0)
        self.stop = GracefulStop(enabled=False)  # train() installs the signal handlers
        self.interrupted = 0  # 128 + the signal that stopped the run, else 0

    def probe_env(self, make_env: Any, name: str, shown: str,
                  env_kwargs: dict[str, Any]) -> tuple[list[Any], bool, Any]:
        """Make env ``name``'s train and test splits (failing on a bad name or unreadable data
        before the model loads): (their first prompts, whether its task runs code, the env's
        own ``max_turns``). ``shown`` names it in errors (``--env 'gsm8k'``)."""
        prompts, runs_code, turns = [], False, None
        for split in ("train", "test"):
            try:
                try:
                    probe = make_env(name, split=split, **env_kwargs)
                except ValueError:
                    if self.mixture is None or split != "train":
                        raise
                    # A mixture's task without a train split (math500) trains on its own
                    # split; when that fails too, the train split's error is the one to show.
                    try:
                        probe = make_env(name, split=None, **env_kwargs)
                    except Exception:
                        probe = make_env(name, split=split, **env_kwargs)
                prompts.append(probe.reset(seed=0)[0])
            except (KeyError, ValueError, ImportError, OSError) as err:
                raise ConfigError(f"{shown} ({split} split): {err}") from err
            except Exception as err:  # a module:Class env is user code and may raise anything
                raise ConfigError(f"{shown} ({split} split) failed to start: "
                                  f"{type(err).__name__}: {err}") from err
            runs_code = bool(getattr(getattr(probe.unwrapped, "task", None), "runs_code", False))
            if split == "train":
                turns = getattr(probe.unwrapped, "max_turns", None)
                self.train_splits[name] = getattr(probe.unwrapped, "split", None) or "train"
                if self.mixture is not None and self.train_splits[name] != "train":
                    self.log(f"note: task {name!r} has no train split; the mixture trains on "
                             f"its {self.train_splits[name]!r} split, the one it is evaluated on")
            held_out = getattr(probe.unwrapped, "rows", None) if split == "test" else None
            if isinstance(held_out, Sized) and 0 < len(held_out) < self.cfg.eval_prompts:
                # Each held-out prompt is a seeded draw from the split, so more prompts than
                # rows measure the same rows again, not a larger sample.
                self.log(f"note: --eval-prompts {self.cfg.eval_prompts} is more than the "
                         f"{len(held_out)} rows of {shown}'s held-out split; rows "
                         "repeat in every evaluation")
            probe.close()
        return prompts, runs_code, turns

    def check_context(self, prompts: Sequence[Sequence[dict]]) -> None:
        """Raise ConfigError when the env's (probe) prompts and --max-new-tokens do not fit
        the model's context: generation would stop short of what was asked, every time."""
        from policy_opt.rollout.engine import context_length
        from policy_opt.rollout.episodes import ChatRenderer

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
        from policy_opt.rollout.engine import ContextOverflow

        try:
            yield
        except ContextOverflow as err:
            raise TrainingError(
                f"a prompt of --env {self.cfg.env!r} does not fit --model {self.cfg.model!r}: "
                f"{err}. Use a model with a longer context or an env with shorter prompts. "
                f"The last good checkpoint is {self.last_checkpoint or '(none yet)'}.") from err

    def make_engine(self) -> Any:
        from policy_opt.rollout.engine import TransformersEngine
        from policy_opt.rollout.vllm_engine import VLLMEngine

        if self.cfg.engine == "transformers":
            return TransformersEngine(self.model, self.tokenizer)
        if self.cfg.engine == "vllm-server":
            from policy_opt.rollout.vllm_server import VLLMServerEngine

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
            from policy_opt.models import default_model_path

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
        from policy_opt.models.lora import MergedSync

        return MergedSync(engine)

    # ---------------------------------------------------------------- one step

    def compute_precision(self) -> contextlib.AbstractContextManager:
        """bf16-mixed: forward passes under bfloat16 autocast (policy_opt.training.precision)."""
        return autocast(self.device, self.autocast_dtype)

    # Seams of the update (policy_opt.training.update), replaceable per trainer.

    def frozen_logprobs(self, model: torch.nn.Module, batch: Batch, idx: torch.Tensor,
                        micro: int, shared: bool | None = None) -> torch.Tensor:
        """[N, L] log-probs of ``model`` before the update, on rows ``idx`` only."""
        return frozen_logprobs(model, batch, self.micro_batches(batch, idx, micro),
                               self.compute_precision, self.cfg.group_size, shared)

    def micro_batches(self, batch: Batch, idx: torch.Tensor,
                      micro: int) -> list[tuple[torch.Tensor, int]]:
        """``idx`` cut into micro-batches of at most ``micro`` rows: (rows, width) each."""
        return micro_batch_plan(batch, idx, self.cfg.group_size, micro, self.dist.world)

    def groups_with_signal(self, batch: Batch, adv: torch.Tensor) -> torch.Tensor:
        """[N / G] bool: the groups whose rows can have a non-zero loss gradient."""
        return groups_with_signal(batch, adv, self.cfg.group_size,
                                  keep_all=self.loss_cfg.beta > 0 or self.dist.world > 1)

    def evaluate(self, step: int, *, keep_rows: bool = False) -> dict[str, Any]:
        """Greedy accuracy, sampled accuracy (mean@k) and pass@k on held-out prompts (fixed
        seeds, so comparable between evaluations); see policy_opt.training.evaluation. ``keep_rows``
        adds ``rows``: every prompt's completions and verdicts (gathered to every rank)."""
        cfg = self.cfg
        seeds = held_out_seeds(cfg.eval_prompts)[self.dist.shard(cfg.eval_prompts)]
        self.model.eval()
        result: dict[str, Any] = {"kind": "eval", "step": step, "k": cfg.eval_k}
        parts: list[Any] = []
        rows: list[dict[str, Any]] = []
        # A mixture is evaluated on each task's own held-out prompts (--eval-prompts each),
        # reported per task (accuracy/<task>, ...) and over all of them.
        for name, (_, make_eval_env) in self.task_envs.items():
            with unsharded(self.model, self.dist), self.prompts_fit(), self.compute_precision():
                ran = eval_rollouts(make_eval_env, self.engine, self.tokenizer, seeds,
                                    k=cfg.eval_k, max_new_tokens=cfg.max_new_tokens,
                                    max_turns=self.max_turns, temperature=cfg.temperature,
                                    top_p=cfg.top_p, seed=cfg.seed,
                                    sample_seed=cfg.seed + 1 + self.dist.rank,
                                    workers=self.env_workers)
            check_rewards(ran.greedy + ran.sampled, name)
            mine = gather_objects(verdicts(ran), self.dist)
            parts += mine
            if self.mixture is not None:
                result.update({f"{key}/{name}": value
                               for key, value in summarise(mine, cfg.eval_k).items()})
            if keep_rows:
                rows += [{**r, "task": name} if self.mixture else r
                         for part in gather_objects(row_records(ran), self.dist) for r in part]
        result.update(summarise(parts, cfg.eval_k))
        if keep_rows:
            result["rows"] = rows
        return result

