"""TRL 1.16's ``GRPOTrainer`` set up for ``benchmarks/train_step.py``, with step timers.

One optimizer step of TRL is made to be one step of our trainer: ``per_device_train_batch_size
= generation_batch_size = B*G``, ``gradient_accumulation_steps = steps_per_generation = 1``,
``num_iterations = 1`` (mu), ``beta = 0`` (no reference model), the same prompts in the same
order (``shuffle_dataset=False``; the dataset holds exactly the rows our trainer draws, step
by step), the arithmetic task's rubric through ``verifiers.adapters.to_trl``, the same
sampling (temperature, ``top_p = 1``, no top-k) and the same ``max_completion_length``.

Timers wrap the trainer's own methods on the instance (no TRL file is changed):

- ``step``: ``on_step_begin`` -> ``on_step_end`` (generation, scoring, loss, backward, clip,
  AdamW); ``interval``: ``on_step_end`` -> next ``on_step_end`` (adds the dataloader fetch and
  TRL's log/save hook); ``cpu``: the process's CPU time over ``step`` (all threads);
- ``generate``: ``_generate_single_turn`` (``model.generate`` and unpadding);
- ``score``: ``_calculate_rewards``;
- ``prepare``: ``_prepare_inputs`` (tokenising, generate, decode, score, advantages, metrics);
- ``forward``: ``_get_per_token_logps_and_entropies`` (the training forward; with gradient
  checkpointing, TRL's default, the recomputed forward runs inside ``backward``);
- ``train_step``: ``training_step`` (prepare + forward + loss + backward).

Example::

    trainer, timers = build_trl_trainer(model_dir, rows, prompts_per_step=8, group_size=8,
                                        max_new_tokens=32, temperature=1.0, seed=0,
                                        out_dir="/tmp/x")
    trainer.train()
    timers.steps   # one dict of seconds per optimizer step
"""

from __future__ import annotations

import functools
import time
from collections import defaultdict
from typing import Any

WRAPPED = {
    "generate": "_generate_single_turn",
    "score": "_calculate_rewards",
    "prepare": "_prepare_inputs",
    "forward": "_get_per_token_logps_and_entropies",
    "train_step": "training_step",
}


class StepTimers:
    """Seconds spent per optimizer step in each wrapped method (one dict per step)."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self.steps: list[dict[str, float]] = []
        self.step_started = 0.0
        self.cpu_started = 0.0
        self.last_end: float | None = None
        self.prompt_ids: list[list[str]] = []  # row ids the reward saw, per step

    def wrap(self, name: str, fn: Any) -> Any:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.current[name] += time.perf_counter() - t0

        return timed


def make_callback(timers: StepTimers, metrics: Any) -> Any:
    """A callback recording each step's times (and TRL's mean completion length and reward,
    read from ``metrics``, TRL's ``_metrics["train"]``, before TRL clears it on logging)."""
    from transformers import TrainerCallback

    class StepTimerCallback(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):  # noqa: ANN001, ANN003
            timers.current = defaultdict(float)
            timers.step_started = time.perf_counter()
            timers.cpu_started = time.process_time()

        def on_step_end(self, args, state, control, **kwargs):  # noqa: ANN001, ANN003
            import torch

            if torch.cuda.is_available() and not args.use_cpu:
                torch.cuda.synchronize()  # the step's queued kernels count in its time
            now = time.perf_counter()
            record = dict(timers.current)
            record["step"] = now - timers.step_started
            record["cpu"] = time.process_time() - timers.cpu_started
            record["interval"] = now - (timers.last_end if timers.last_end is not None
                                        else timers.step_started)
            timers.last_end = now
            for key, name in (("len_mean", "completions/mean_length"), ("reward_mean", "reward")):
                values = metrics.get(name) or [None]
                record[key] = values[-1]
            timers.steps.append(record)

    return StepTimerCallback()


def build_trl_trainer(model_dir: str, rows: list[Any], *, prompts_per_step: int,
                      group_size: int, max_new_tokens: int, temperature: float, seed: int,
                      out_dir: str, lr: float = 3e-4, gradient_checkpointing: bool = True,
                      device: str = "cpu", bf16: bool = False, reward: str = "arithmetic"
                      ) -> tuple[Any, StepTimers]:
    """A ``GRPOTrainer`` over ``rows`` (``tasks.Row``, ``prompts_per_step`` per step, in step
    order) and its timers; ``trainer.train()`` runs ``len(rows) // prompts_per_step`` steps.
    ``gradient_checkpointing``: TRL's default is on (it recomputes activations in backward).
    ``device``: cpu or cuda; ``bf16``: TRL's ``bf16=True`` (fp32 parameters, bf16 autocast);
    ``reward``: the arithmetic rubric or ``parity`` (``_parity_env.parity_reward``)."""
    import torch
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import GRPOConfig, GRPOTrainer

    import tasks
    from verifiers.adapters import to_trl

    if len(rows) % prompts_per_step:
        raise ValueError(f"rows ({len(rows)}) must be a multiple of prompts_per_step "
                         f"({prompts_per_step})")
    timers = StepTimers()
    if reward == "parity":
        from _parity_env import parity_reward as score
    else:
        score = to_trl(tasks.get("arithmetic").rubric, answer_key="answer", name="arithmetic")

    def arithmetic(prompts: list, completions: list, **kwargs: Any) -> list:
        # Record which rows were scored (to check TRL saw our prompts), then score without
        # the bookkeeping column.
        ids = kwargs.pop("row_id")
        timers.prompt_ids.append(list(dict.fromkeys(ids)))
        return score(prompts, completions, **kwargs)

    data = Dataset.from_list([
        {"prompt": [dict(m) for m in r.prompt], "answer": r.answer, "row_id": r.id} for r in rows
    ])
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    tokenizer.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    completions = prompts_per_step * group_size
    args = GRPOConfig(
        output_dir=out_dir,
        use_cpu=device == "cpu",
        bf16=bf16,
        fp16=False,
        report_to="none",
        logging_strategy="no",
        save_strategy="no",
        eval_strategy="no",
        disable_tqdm=True,
        dataloader_num_workers=0,
        seed=seed,
        max_steps=len(rows) // prompts_per_step,
        # one optimizer step = one generation of B*G completions, used once (mu = 1)
        per_device_train_batch_size=completions,
        gradient_accumulation_steps=1,
        generation_batch_size=completions,
        num_generations=group_size,
        num_iterations=1,
        shuffle_dataset=False,
        max_completion_length=max_new_tokens,
        temperature=temperature,
        top_p=1.0,
        top_k=0,
        beta=0.0,
        loss_type="grpo",
        scale_rewards="group",
        epsilon=0.2,
        learning_rate=lr,
        weight_decay=0.0,
        lr_scheduler_type="constant",
        warmup_steps=0,
        max_grad_norm=1.0,
        log_completions=False,
        gradient_checkpointing=gradient_checkpointing,
    )
    trainer = GRPOTrainer(model=model, reward_funcs=[arithmetic], args=args,
                          train_dataset=data, processing_class=tokenizer)
    for label, method in WRAPPED.items():
        setattr(trainer, method, timers.wrap(label, getattr(trainer, method)))
    trainer.add_callback(make_callback(timers, trainer._metrics["train"]))
    return trainer, timers
