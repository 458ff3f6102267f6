"""The bookkeeping around one step's optimiser updates, in one place: which rows train, how the
batch is cut into minibatches and micro-batches, the frozen log-probs, DDP's gradient sync,
the non-finite checks, the gradient clip and the metric sums.

The loop (:meth:`policy_opt.train.Trainer.optimise`) states the update itself::

    for minibatch in Update(trainer, step, batch, adv).minibatches():   # mu x minibatches
        plan = trainer.micro_batches(batch, minibatch.idx, update.micro)  # the cut
        for part in minibatch.parts(plan):                               # micro-batches
            with part.synced():
                logp = completion_logprobs(policy, part.batch, ...)
                loss, metrics = policy_loss(logp, part.old_logp, part.adv, ...)
                part.backward(loss)
            part.record(loss, metrics)
        minibatch.step()                             # checks, clip, AdamW

Minibatches and micro-batches hold whole groups, so a group's prompt is run once. Every sum
stays on the device (float64, added in the order Python floats were) and is read once per
optimiser step: no host round trip per micro-batch.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import torch

from policy_opt.algorithm.batch import Batch, prompts_shared
from policy_opt.algorithm.logprobs import completion_logprobs
from policy_opt.errors import TrainingError
from policy_opt.training.batching import micro_batch_rows, minibatch_order
from policy_opt.training.distributed import any_rank, mean_over_ranks
from policy_opt.training.schedule import step_seed

RATIO_METRICS = ("clip_frac_low", "clip_frac_high", "clip_frac", "ratio_mean")


def groups_with_signal(batch: Batch, adv: torch.Tensor, group_size: int, *,
                       keep_all: bool) -> torch.Tensor:
    """[N / G] bool: the groups whose rows can have a non-zero loss gradient.

    Without a KL term a row's loss is ``-min(r A, clip(r) A)``, identically 0 when A = 0,
    and a group whose rewards are all equal has A = 0 on every row: its forward and
    backward passes can be skipped (their share of the normaliser is kept, so the loss and
    gradient are exactly those of the full batch). ``keep_all`` (a KL term, or several ranks,
    which must run the same backward passes for the gradient all-reduce) skips nothing.
    """
    n = len(adv)
    if keep_all:
        return torch.ones(n // group_size, dtype=torch.bool, device=adv.device)
    live = (adv != 0) & (batch.completion_mask.sum(dim=1) > 0)
    return live.view(n // group_size, group_size).any(dim=1)


def micro_batch_plan(batch: Batch, idx: torch.Tensor, group_size: int, micro: int,
                     world: int) -> list[tuple[torch.Tensor, int]]:
    """``idx`` (whole groups) cut into micro-batches of at most ``micro`` rows of similar
    completion length: (rows, longest completion) each
    (:func:`policy_opt.training.batching.micro_batch_rows`)."""
    # Every rank must run the same number of passes (each one meets collectives), and
    # ranks hold different lengths: fixed-size cuts there.
    return micro_batch_rows(batch, idx, group_size, micro, fixed_cuts=world > 1)


@torch.no_grad()
def frozen_logprobs(model: torch.nn.Module, batch: Batch, plan: list[tuple[torch.Tensor, int]],
                    precision: Callable[[], contextlib.AbstractContextManager], group_size: int,
                    shared: bool | None = None) -> torch.Tensor:
    """[N, L] log-probs of ``model`` before the update, on the rows of ``plan`` only (the rows
    the loss will see; the others stay 0)."""
    model.eval()
    out = torch.zeros(batch.completion_ids.shape, dtype=torch.float32,
                      device=batch.completion_ids.device)
    for rows, width in plan:
        mb = batch.rows(rows).trimmed(width)
        with precision():
            out[rows, :mb.completion_ids.shape[1]] = completion_logprobs(
                model, mb, group_size=group_size, shared=shared)
    return out


class Update:
    """One step's optimiser updates over ``batch`` with advantages ``adv`` [N].

    ``trainer`` supplies the config, the model and optimiser, the ranks, and three seams it
    may replace: ``groups_with_signal``, ``micro_batches`` and ``frozen_logprobs``.
    """

    def __init__(self, trainer: Any, step: int, batch: Batch, adv: torch.Tensor) -> None:
        cfg = trainer.cfg
        self.trainer, self.step, self.batch, self.adv = trainer, step, batch, adv
        self.n = batch.input_ids.shape[0]
        g = self.g = cfg.group_size
        self.size = self.n // cfg.minibatches
        self.micro = max(g, (cfg.micro_batch_size or self.size) // g * g)
        self.active = trainer.groups_with_signal(batch, adv)
        live = torch.arange(self.n, device=self.active.device)[self.active.repeat_interleave(g)]
        # One pass in one minibatch is on-policy (old = current, detached, saving a forward);
        # any later optimiser step of the same batch needs the rollout policy's log-probs.
        off_policy = cfg.mu > 1 or cfg.minibatches > 1
        # Every micro-batch holds whole groups, so the batch's answer holds for each of them.
        self.shared = prompts_shared(batch, g)
        self.old_logp = (trainer.frozen_logprobs(trainer.model, batch, live, self.micro,
                                                 self.shared) if off_policy else None)
        self.ref_logp = (trainer.frozen_logprobs(trainer.ref_model, batch, live, self.micro,
                                                 self.shared)
                         if trainer.ref_model is not None else None)
        self.token_mean = trainer.loss_cfg.norm == "token_mean"
        trainer.model.train()
        self.gen = torch.Generator().manual_seed(step_seed(cfg.seed, step, "minibatches"))
        self.loss_sum = torch.zeros((), dtype=torch.float64, device=batch.device)
        self.sums: dict[str, float] = {}
        self.count = 0  # optimiser steps
        self.ratios: dict[str, torch.Tensor] = {}  # policy_loss's ratio/clip metrics
        self.trained = 0  # minibatches that trained at least one row

    def minibatches(self) -> Iterator[Minibatch]:
        """``mu`` passes over the batch, each cut into ``minibatches`` shuffled parts."""
        cfg = self.trainer.cfg
        for _ in range(cfg.mu):
            order = minibatch_order(self.n // self.g, self.g, self.gen, self.batch.device)
            for m in range(cfg.minibatches):
                yield Minibatch(self, order[m * self.size:(m + 1) * self.size])

    def metrics(self) -> dict[str, float | None]:
        """Means over the optimiser steps (and the ranks) of the loss, the gradient norm, the
        share of rows trained, and of the ratio metrics over the minibatches that trained."""
        dist = self.trainer.dist
        sums = {"loss": self.loss_sum.item(), **self.sums}
        out = mean_over_ranks({k: v / self.count for k, v in sums.items()}, dist)
        if self.trained:
            read = dict(zip(self.ratios, torch.stack(list(self.ratios.values())).tolist()))
            out.update(mean_over_ranks({k: v / self.trained for k, v in read.items()}, dist))
        else:  # every group was skipped: no ratio was computed
            out.update(dict.fromkeys(RATIO_METRICS))
        return out


class Minibatch:
    """The rows of one optimiser step (``idx``), the groups without signal left out (their
    loss and gradient are 0); :meth:`parts` walks the micro-batches the loop cut them into."""

    def __init__(self, update: Update, idx: torch.Tensor) -> None:
        self.update = update
        batch = update.batch
        self.num_tokens = batch.completion_mask[idx].sum()
        self.idx = idx[update.active[idx // update.g]]
        self.finite = torch.ones((), dtype=torch.bool, device=batch.device)

    def parts(self, plan: list[tuple[torch.Tensor, int]]) -> Iterator[MicroBatch]:
        """One :class:`MicroBatch` per (rows, width) of ``plan`` (the trainer's
        ``micro_batches`` of :attr:`idx`)."""
        for part, (rows, width) in enumerate(plan):
            yield MicroBatch(self, rows, width, last=part == len(plan) - 1)

    def step(self) -> None:
        """Stop on a non-finite loss or gradient norm; clip; one AdamW step."""
        u, t = self.update, self.update.trainer
        if any_rank(not self.finite.item(), t.dist):
            raise TrainingError(
                f"the loss became non-finite at step {u.step}; stopping. The last good "
                f"checkpoint is {t.last_checkpoint or '(none written yet)'}. Lower "
                "--lr, keep --grad-clip on, or check the rewards.")
        if len(self.idx) == 0:
            # No group has signal: the gradient is exactly 0, and AdamW still steps
            # (its momentum moves the weights), as it would have without the skip.
            for p in t.model.parameters():
                if p.requires_grad:
                    p.grad = torch.zeros_like(p)
        u.sums["rows_trained"] = u.sums.get("rows_trained", 0.0) + len(self.idx) / u.size
        u.trained += len(self.idx) > 0
        clip = t.cfg.grad_clip if t.cfg.grad_clip > 0 else float("inf")
        grad_norm = torch.nn.utils.clip_grad_norm_(t.model.parameters(), clip)
        if any_rank(not torch.isfinite(grad_norm).item(), t.dist):
            raise TrainingError(
                f"the gradient norm became {grad_norm.item()} at step {u.step}; stopping. "
                f"The last good checkpoint is {t.last_checkpoint or '(none yet)'}.")
        u.sums["grad_norm"] = u.sums.get("grad_norm", 0.0) + grad_norm.item()
        t.optimizer.step()
        u.count += 1


class MicroBatch:
    """One forward/backward pass: its rows of the batch, advantages and frozen log-probs."""

    def __init__(self, minibatch: Minibatch, rows: torch.Tensor, width: int, *,
                 last: bool) -> None:
        u = minibatch.update
        self.minibatch, self.rows, self.last = minibatch, rows, last
        self.batch = u.batch.rows(rows).trimmed(width)
        width = self.batch.completion_ids.shape[1]
        self.adv = u.adv[rows]
        self.old_logp = None if u.old_logp is None else u.old_logp[rows, :width]
        self.ref_logp = None if u.ref_logp is None else u.ref_logp[rows, :width]
        # Row-mean norms: this micro-batch's share of the minibatch's mean.
        self.share = 1.0 if u.token_mean else len(rows) / u.size
        self.num_tokens = minibatch.num_tokens if u.token_mean else None

    def synced(self) -> contextlib.AbstractContextManager:
        """DDP all-reduces gradients on the minibatch's last micro-batch only."""
        policy = self.minibatch.update.trainer.policy
        if hasattr(policy, "no_sync") and not self.last:
            return policy.no_sync()
        return contextlib.nullcontext()

    def backward(self, loss: torch.Tensor) -> None:
        # A non-finite loss is caught before the optimiser steps (Minibatch.step).
        (loss * self.share).backward()

    def record(self, loss: torch.Tensor, metrics: dict[str, torch.Tensor]) -> None:
        mb, u = self.minibatch, self.minibatch.update
        mb.finite &= torch.isfinite(loss.detach())
        for k, v in metrics.items():
            u.ratios[k] = u.ratios.get(k, 0.0) + v.double() * len(self.rows) / len(mb.idx)
        u.loss_sum += loss.detach().double() * self.share
