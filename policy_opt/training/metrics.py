"""A step's rollout metrics (reward, accuracy, lengths, truncation, entropy, the share of
"no signal" episodes) and the check that every reward is a finite number or ``None``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from policy_opt.errors import TrainingError
from policy_opt.rollout.episodes import Episode
from policy_opt.training.evaluation import episode_correct


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
