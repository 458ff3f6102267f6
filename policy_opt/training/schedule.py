"""What a step's number decides: its learning rate (:func:`lr_factor`) and its random seeds
(:func:`step_seed`). Both are pure, so a run resumed at step k recomputes them exactly."""

from __future__ import annotations

import math
import random

from policy_opt.config import TrainConfig


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


def step_seed(seed: int, step: int, salt: str) -> int:
    """A 31-bit seed derived from (seed, step, salt); stable across machines and processes."""
    return random.Random(f"{seed}:{step}:{salt}").randrange(2**31)
