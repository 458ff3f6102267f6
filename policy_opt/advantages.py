"""Group-relative advantages of GRPO, Dr.GRPO and GSPO (one pure function per formula).

Rows are laid out group after group, as TRL and verl lay them out: with ``group_size=G`` rows
``[0, G)`` are the G completions of the first prompt, ``[G, 2G)`` of the second, and so on.

    A[i] = (r_i - mean(r_group)) / (std(r_group) + eps)     scale="group"  (GRPO, GSPO)
    A[i] = (r_i - mean(r_group)) / (std(r_batch) + eps)     scale="batch"
    A[i] =  r_i - mean(r_group)                             scale="none"   (Dr.GRPO)

``std`` is the *sample* standard deviation (Bessel's correction, divide by G - 1) by default,
because that is what TRL's ``GRPOTrainer`` (``nanstd``) and verl's ``compute_grpo_outcome_
advantage`` (``torch.std``) use; ``unbiased=False`` gives the population std (divide by G),
which is the figure the seed text quotes: for r = {0, .2, .2, 0, 0, .1, 0, 0} the mean is
0.0625, the population std 0.0857 and the sample std 0.0916.

A group of one and a group whose rewards are all equal have advantage exactly 0, never NaN.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

SCALES: dict[str, Callable[..., torch.Tensor]] = {}
"""Registry of reward-scaling rules by name: ``"group"``, ``"batch"``, ``"none"``."""


def register_scale(name: str) -> Callable[[Callable[..., torch.Tensor]], Callable[..., torch.Tensor]]:
    """Register a scaling rule ``fn(centred [B, G], rewards [B, G], *, eps, unbiased) -> [B, G]``."""

    def deco(fn: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
        SCALES[name] = fn
        return fn

    return deco


def reward_std(x: torch.Tensor, dim: int | None = None, *, unbiased: bool = True) -> torch.Tensor:
    """Standard deviation that is 0 (not NaN) when there is a single value.

    ``unbiased=True`` divides by ``n - 1`` (TRL, verl), ``False`` by ``n`` (the seed's figure).

    >>> r = torch.tensor([0.0, .2, .2, 0, 0, .1, 0, 0], dtype=torch.float64)
    >>> round(reward_std(r, unbiased=False).item(), 4), round(reward_std(r).item(), 4)
    (0.0857, 0.0916)
    """
    n = x.numel() if dim is None else x.shape[dim]
    if n < 2:
        # torch.std of one value is NaN (0/0); a single sample has no spread.
        return torch.zeros_like(x.sum() if dim is None else x.sum(dim))
    return x.std(correction=1 if unbiased else 0) if dim is None else x.std(
        dim=dim, correction=1 if unbiased else 0
    )


@register_scale("group")
def scale_by_group_std(
    centred: torch.Tensor, rewards: torch.Tensor, *, eps: float, unbiased: bool
) -> torch.Tensor:
    """GRPO: ``A = (r - mean_g) / (std_g + eps)``, std over each group. Shapes ``[B, G]``.

    TRL ``scale_rewards="group"``; verl ``norm_adv_by_std_in_grpo=True``.
    """
    return centred / (reward_std(rewards, dim=1, unbiased=unbiased).unsqueeze(1) + eps)


@register_scale("batch")
def scale_by_batch_std(
    centred: torch.Tensor, rewards: torch.Tensor, *, eps: float, unbiased: bool
) -> torch.Tensor:
    """``A = (r - mean_g) / (std_batch + eps)``: one std over all B*G rewards. Shapes ``[B, G]``.

    TRL ``scale_rewards="batch"`` (the "Tricks or Traps" recommendation).
    """
    return centred / (reward_std(rewards, unbiased=unbiased) + eps)


@register_scale("none")
def no_scale(centred: torch.Tensor, rewards: torch.Tensor, *, eps: float, unbiased: bool) -> torch.Tensor:
    """Dr.GRPO: ``A = r - mean_g`` (no division by std). Shapes ``[B, G]``.

    TRL ``scale_rewards="none"``; verl ``norm_adv_by_std_in_grpo=False``.
    """
    return centred


def group_advantages(
    rewards: torch.Tensor,
    group_size: int,
    *,
    scale: str = "group",
    eps: float = 1e-4,
    unbiased: bool = True,
) -> torch.Tensor:
    """Group-relative advantage of each of the ``N = B*G`` completions.

        A[i] = (r_i - mean(r_1..r_G)) / (std(r_1..r_G) + eps)

    Args:
        rewards: ``[N]`` float tensor of sequence rewards, group after group. Must not hold
            NaN: drop "no signal" completions (``reward=None``) before calling.
        group_size: G, completions per prompt; must divide N.
        scale: ``"group"`` (GRPO/GSPO), ``"batch"`` or ``"none"`` (Dr.GRPO); see ``SCALES``.
        eps: added to the std (TRL uses 1e-4, verl 1e-6).
        unbiased: sample std (divide by G - 1, TRL and verl) if True, population std if False.

    Returns:
        ``[N]`` advantages, same dtype and device as ``rewards``.

    >>> r = torch.tensor([1.0, 0.0, 1.0, 1.0])
    >>> group_advantages(r, group_size=2, scale="none")
    tensor([ 0.5000, -0.5000,  0.0000,  0.0000])
    """
    if not isinstance(rewards, torch.Tensor):
        raise ValueError(f"rewards must be a torch.Tensor, got {type(rewards).__name__}")
    if rewards.dim() != 1:
        raise ValueError(f"rewards must be 1-D [N], got shape {tuple(rewards.shape)}")
    if not rewards.is_floating_point():
        raise ValueError(f"rewards must be a floating-point tensor, got dtype {rewards.dtype}")
    if isinstance(group_size, bool) or not isinstance(group_size, int) or group_size < 1:
        raise ValueError(f"group_size must be a positive int, got {group_size!r}")
    if rewards.numel() == 0 or rewards.numel() % group_size:
        raise ValueError(
            f"group_size ({group_size}) must divide the number of rewards ({rewards.numel()}) "
            "and there must be at least one"
        )
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {sorted(SCALES)}, got {scale!r}")
    if not eps >= 0:
        raise ValueError(f"eps must be >= 0, got {eps!r}")
    if not torch.isfinite(rewards).all():
        raise ValueError(
            "rewards contain NaN or inf; drop completions without a reward (reward=None) first"
        )
    grouped = rewards.reshape(-1, group_size)
    centred = grouped - grouped.mean(dim=1, keepdim=True)
    # An all-equal group's mean can differ from its values in the last bit (0.1 * 3 / 3), which
    # divided by a zero std would blow up to ~1e-13 or, with eps=0, to NaN; its advantage is 0.
    flat = grouped.amax(dim=1, keepdim=True) == grouped.amin(dim=1, keepdim=True)
    centred = centred.masked_fill(flat, 0.0)
    adv = SCALES[scale](centred, grouped, eps=eps, unbiased=unbiased)
    return torch.where(centred == 0, torch.zeros_like(adv), adv).view(-1)
