"""``python -m policy_opt.train``: GRPO, Dr.GRPO and GSPO on a verifier-backed environment.

One step::

    1. sample B prompt seeds; roll out G episodes per prompt    -> Episode x (B*G)
    2. rewards r [B*G] from the env (verifiers)                 -> advantages A [B*G]
    3. old log-probs  logp_old [B*G, L] (if several optimiser   -> ref log-probs if beta > 0
       steps share the batch: mu > 1 or minibatches > 1)
    4. mu passes x minibatches: logp [n, L] -> policy_loss -> backward -> clip -> AdamW step
    5. sync the rollout engine, log metrics, evaluate, checkpoint

``Trainer.train_step`` reads in that order. The loss is computed, and each minibatch cut
into micro-batches, in ``Trainer.optimise`` (``policy_loss``, policy_opt.algorithm.losses;
``self.micro_batches``, policy_opt.training.batching); DDP's gradient sync, the non-finite
checks and the metric sums are kept in policy_opt.training.update. What the
Trainer is built from (model, envs, engine, evaluation, checkpoints) is
policy_opt.training.session.

Every random choice of step k is derived from (seed, k), so a run resumed from the
checkpoint of step k repeats the uninterrupted run's step k+1 exactly.

Example::

    python -m policy_opt.train --env arithmetic --algo gspo --max-steps 40 --out runs/demo
"""

from __future__ import annotations

# First, before torch: a signal while the slow imports run exits quietly (130 / 143).
from policy_opt.training import startup  # noqa: F401  # isort: skip

import functools
import json
import random
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from policy_opt.algorithm.advantages import group_advantages
from policy_opt.algorithm.batch import Batch
from policy_opt.algorithm.logprobs import completion_logprobs
from policy_opt.algorithm.losses import policy_loss
from policy_opt.cli import check_model_flag, run_command
from policy_opt.config import parse_config, small_model_note
from policy_opt.errors import TrainingError  # noqa: F401  (importable from here, as before)
from policy_opt.rollout.episodes import Episode, collect_episodes
from policy_opt.training.batching import pack_episodes
from policy_opt.training.distributed import barrier, gather_objects, max_over_ranks, unsharded
from policy_opt.training.length_shaping import LengthShaping, shaping_metrics
from policy_opt.training.metrics import check_rewards, episode_stats, rollout_metrics
from policy_opt.training.mixture import draw_tasks, rollout_by_task, task_metrics, task_stats
from policy_opt.training.run_folder import check_out, clear_run
from policy_opt.training.run_inputs import record_inputs, restore_inputs
from policy_opt.training.schedule import lr_factor, step_seed
from policy_opt.training.session import Session
from policy_opt.training.signals import (
    GracefulStop,
    StopNow,
    exit_on_signal,
    restore_handlers,
    signal_point,
)
from policy_opt.training.update import Update


class Trainer(Session):
    """The training loop (the module doc) over a :class:`Session`'s model, envs and engine."""

    def rollout(self, step: int) -> list[Episode]:
        """This rank's share of the step's prompts, G episodes each (group-major); in a
        mixture run grouped by task (policy_opt.training.mixture)."""
        signal_point("rollout")
        rng = random.Random(step_seed(self.cfg.seed, step, "prompts"))
        seeds = [rng.randrange(2**31) for _ in range(self.cfg.prompts_per_step)]
        names = draw_tasks(self.mixture, self.cfg.env, len(seeds),
                           step_seed(self.cfg.seed, step, "mixture"))
        mine = self.dist.shard(len(seeds))
        self.model.eval()

        def collect(name: str, task_seeds: list[int]) -> list[Episode]:
            # A mixture's tasks sample with seeds of their own; one env keeps the old seed.
            tag = f"sampling:{self.dist.rank}" + (f":{name}" if self.mixture else "")
            return collect_episodes(
                self.task_envs[name][0], self.engine, self.tokenizer, task_seeds,
                self.cfg.group_size, max_new_tokens=self.cfg.max_new_tokens,
                max_turns=self.max_turns, temperature=self.cfg.temperature,
                top_p=self.cfg.top_p, seed=step_seed(self.cfg.seed, step, tag),
                workers=self.env_workers)

        with unsharded(self.model, self.dist), self.prompts_fit():
            return rollout_by_task(names[mine], seeds[mine], collect,
                                   tag=self.mixture is not None)

    @functools.cached_property
    def length_shaping(self) -> LengthShaping:
        """The --overlong-buffer / --truncation-penalty terms (inactive when neither is set)."""
        return LengthShaping(self.cfg.max_new_tokens * self.max_turns,
                             overlong_buffer=self.cfg.overlong_buffer,
                             overlong_penalty=self.cfg.overlong_penalty,
                             truncation_penalty=self.cfg.truncation_penalty)

    def advantages(self, episodes: Sequence[Episode]) -> tuple[torch.Tensor, torch.Tensor]:
        """Group advantages [N] and a row mask [N] that drops no-signal (None) rewards.

        A None reward is left out of its group's statistics (policy_opt.algorithm.advantages), so
        it changes no other member's advantage; its own advantage and row mask are 0.
        """
        raw = [e.reward for e in episodes]
        check_rewards(episodes, self.cfg.env)
        rewards = torch.tensor([0.0 if r is None else float(r) for r in raw], dtype=torch.float64)
        keep = torch.tensor([r is not None for r in raw])
        adv = group_advantages(rewards, group_size=self.cfg.group_size,
                               scale=self.loss_cfg.adv_scale, valid=keep)
        return adv.float(), keep.float()

    def optimise(self, step: int, batch: Batch, adv: torch.Tensor) -> dict[str, float | None]:
        """``mu`` passes x ``minibatches``: each minibatch cut into micro-batches
        (``self.micro_batches``); per micro-batch, the policy's log-probs, the loss
        (``policy_loss``, policy_opt.algorithm.losses) and its backward pass; per minibatch,
        one clipped AdamW step. The rows, DDP's sync, the checks and the sums are kept by
        policy_opt.training.update."""
        signal_point("optimise")
        lr = self.cfg.lr * lr_factor(self.cfg, step, self.time_spent)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        update = Update(self, step, batch, adv)
        for minibatch in update.minibatches():
            self.optimizer.zero_grad(set_to_none=True)
            # The micro-batch cut: whole groups of similar length (policy_opt.training.batching).
            plan = self.micro_batches(batch, minibatch.idx, update.micro)
            for part in minibatch.parts(plan):
                with part.synced():
                    with self.compute_precision():  # forward only, not the backward
                        logp = completion_logprobs(self.policy, part.batch,
                                                   group_size=self.cfg.group_size,
                                                   shared=update.shared)
                    loss, metrics = policy_loss(
                        logp, part.old_logp, part.adv, part.batch.completion_mask,
                        config=self.loss_cfg, ref_logp=part.ref_logp,
                        num_tokens=part.num_tokens, check_values=False)
                    part.backward(loss)
                part.record(loss, metrics)
            minibatch.step()
        return update.metrics()

    def train_step(self, step: int) -> dict[str, Any]:
        """rollout -> rewards -> advantages -> policy update -> metrics."""
        t0 = time.perf_counter()
        with self.stop.abortable(), self.compute_precision():
            # a signal here stops the run at the last finished step
            episodes = self.rollout(step)
        if hasattr(self.engine, "sleep"):
            self.engine.sleep()  # vLLM's memory goes back to the optimisation phase
        t1 = time.perf_counter()
        if self.length_shaping:
            self.length_shaping.apply(episodes)
        adv, keep = self.advantages(episodes)
        batch = pack_episodes(episodes, self.tokenizer.pad_token_id).to(self.device)
        batch.completion_mask = batch.completion_mask * keep.to(self.device)[:, None]
        metrics = self.optimise(step, batch, adv.to(self.device))
        self.engine.sync_weights(self.model)
        t2 = time.perf_counter()
        stats = [x for part in gather_objects([episode_stats(e) for e in episodes], self.dist)
                 for x in part]
        generated = sum(x[1] for x in stats)
        per_task = task_metrics([x for part in gather_objects([task_stats(e) for e in episodes],
                                                               self.dist) for x in part],
                                self.cfg.group_size) if self.mixture else {}
        return {
            "kind": "train", "step": step + 1, **rollout_metrics(stats, self.cfg.group_size),
            **per_task, **shaping_metrics(episodes),
            **metrics, "lr": self.optimizer.param_groups[0]["lr"],
            "tokens_per_s": generated / max(t1 - t0, 1e-9),
            "time_rollout": t1 - t0, "time_optimise": t2 - t1, "time_step": t2 - t0,
        }

    def loop(self, held_out: Any, record: Any) -> int:
        """The first evaluation, the steps, and the last evaluation; returns the last finished
        step (also kept in ``self.finished``, for a StopNow that cuts this short)."""
        from tqdm.auto import tqdm

        cfg = self.cfg
        self.finished = self.start_step
        if self.start_step == 0:
            held_out(0)
        bar = tqdm(range(self.start_step, cfg.max_steps), initial=self.start_step,
                   total=cfg.max_steps, desc=f"{cfg.algo} on {cfg.env}", unit="step",
                   dynamic_ncols=True, file=sys.stderr, disable=not self.dist.is_main)
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
            self.finished = done = step + 1
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
                if self.stop.requested:  # a signal during the write: that step is saved
                    break
        bar.close()
        if self.start_step < self.finished and not self.stop.requested:
            held_out(self.finished)
        return self.finished

    def train(self) -> Path:
        from policy_opt.training.plots import plot_run
        from policy_opt.training.reporting import check_available, make_reporter

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
            record_inputs(self.out, cfg)
            metrics_path.touch()  # a run stopped before its first record still has its file
        reporter = make_reporter(cfg.report_to if main_rank else "none", self.out, asdict(cfg))

        def record(rec: dict[str, Any]) -> None:
            if main_rank:
                with metrics_path.open("a") as fh:
                    fh.write(json.dumps(rec) + "\n")
                reporter.log(rec)

        def held_out(step: int) -> None:
            with self.stop.abortable():
                if step == 0:
                    signal_point("first-eval")
                ev = self.evaluate(step)
            record(ev)
            self.last_eval = (step, ev["accuracy"])
            if self.first_eval is None:
                self.first_eval = ev["accuracy"]
            self.log(f"step {step} held-out: accuracy {ev['accuracy']:.3f}, "
                     f"pass@{cfg.eval_k} {ev['pass_at_k']:.3f}")
            if main_rank:  # redrawn at every evaluation, so a killed run still has its plot
                plot_run(metrics_path, self.out / "curves.png", title=f"{cfg.algo} on {cfg.env}")

        # Signals are handled in a single-process run (see policy_opt.training.signals).
        self.stop = GracefulStop(enabled=not self.dist.enabled, log=self.log)
        final = self.finished = self.start_step  # the last finished step
        # The handlers stay until the run folder is complete: a signal while the last
        # checkpoint or the curves are written lets them finish, then exits 130 / 143.
        with self.stop:
            try:
                final = self.loop(held_out, record)
            except StopNow:
                final = self.finished
            finally:
                reporter.close()
            self.interrupted = self.stop.exit_code
            last = self.last_checkpoint
            if self.interrupted and last is not None and last.name == f"step-{final:06d}":
                self.log(f"stopped before a step finished; {last} is still the newest "
                         "checkpoint")
            else:
                self.checkpoint(final)
            if main_rank:
                png = plot_run(metrics_path, self.out / "curves.png",
                               title=f"{cfg.algo} on {cfg.env}")
                self.log(f"wrote {metrics_path}, {png}, {self.last_checkpoint}")
            self.interrupted = self.stop.exit_code  # a signal during the writes above counts
            if main_rank and self.interrupted:
                out = shlex.quote(str(self.out.expanduser().resolve()))
                self.log(f"continue with: python -m policy_opt.train --out {out} --resume")
        return self.out


def main(argv: list[str] | None = None) -> int:
    def body(made: list[Trainer]) -> int | None:
        cfg = parse_config(argv)
        if cfg.resume:
            restore_inputs(cfg)
        check_out(cfg.out, resume=cfg.resume, overwrite=cfg.overwrite)  # before the model loads
        check_model_flag(cfg.model)
        trainer = Trainer(cfg)
        made.append(trainer)
        note = small_model_note(cfg, sum(p.numel() for p in trainer.model.parameters()))
        if note:
            trainer.log(note)
        trainer.train()
        return trainer.interrupted

    # Until the loop's own handlers: a signal exits at once (nothing is being written yet).
    previous = exit_on_signal()
    try:
        return run_command(body, "training stopped")
    finally:
        restore_handlers(previous)


if __name__ == "__main__":
    sys.exit(main())
