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

"No signal" is neutral. A completion whose reward is ``None`` (an infrastructure failure,
never the completion's fault) is marked ``valid[i] = False``. Every statistic above is taken
over the valid members only: with V_g the valid members of group g and V all valid members,

    mean_g = sum_{j in V_g} r_j / |V_g|        std_g, std_batch: over V_g, V only
    A[i]   = 0                                  for i not valid

so a ``None`` member changes no other member's advantage, for every scale: a group with
``None`` members has the advantages of the same group with them removed. A group without a
valid member has advantage 0 throughout.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

SCALES: dict[str, Callable[..., torch.Tensor]] = {}
"""Registry of reward-scaling rules by name: ``"group"``, ``"batch"``, ``"none"``."""


def register_scale(name: str) -> Callable[[Callable[..., torch.Tensor]], Callable[..., torch.Tensor]]:
    """Register a scaling rule
    ``fn(centred [B, G], rewards [B, G], *, eps, unbiased, valid [B, G] | None) -> [B, G]``.

    ``valid`` is None when every reward is valid; otherwise statistics are over its True cells.
    """

    def deco(fn: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
        SCALES[name] = fn
        return fn

    return deco


def reward_std(x: torch.Tensor, dim: int | None = None, *, unbiased: bool = True,
               valid: torch.Tensor | None = None) -> torch.Tensor:
    """Standard deviation that is 0 (not NaN) when there is a single value.

    ``unbiased=True`` divides by ``n - 1`` (TRL, verl), ``False`` by ``n`` (the seed's figure).
    ``valid`` (bool, shape of ``x``): only its True cells count, ``n`` is their number
    (per slice along ``dim``); None counts every cell.

    >>> r = torch.tensor([0.0, .2, .2, 0, 0, .1, 0, 0], dtype=torch.float64)
    >>> round(reward_std(r, unbiased=False).item(), 4), round(reward_std(r).item(), 4)
    (0.0857, 0.0916)
    """
    if valid is not None:
        return _masked_std(x, valid, dim, correction=1 if unbiased else 0)
    n = x.numel() if dim is None else x.shape[dim]
    if n < 2:
        # torch.std of one value is NaN (0/0); a single sample has no spread.
        return torch.zeros_like(x.sum() if dim is None else x.sum(dim))
    return x.std(correction=1 if unbiased else 0) if dim is None else x.std(
        dim=dim, correction=1 if unbiased else 0
    )


def _masked_std(x: torch.Tensor, valid: torch.Tensor, dim: int | None, *,
                correction: int) -> torch.Tensor:
    """Two-pass std over the True cells of ``valid``; 0 where fewer than two cells are True."""
    dims = tuple(range(x.dim())) if dim is None else (dim,)
    n = valid.sum(dim=dims, keepdim=True).to(x.dtype)
    mean = torch.where(valid, x, 0).sum(dim=dims, keepdim=True) / n.clamp(min=1)
    dev = torch.where(valid, x - mean, 0)
    var = (dev * dev).sum(dim=dims, keepdim=True) / (n - correction).clamp(min=1)
    std = torch.where(n < 2, torch.zeros_like(var), var.sqrt())
    return std.reshape(()) if dim is None else std.squeeze(dim)


@register_scale("group")
def scale_by_group_std(
    centred: torch.Tensor, rewards: torch.Tensor, *, eps: float, unbiased: bool,
    valid: torch.Tensor | None = None,
) -> torch.Tensor:
    """GRPO: ``A = (r - mean_g) / (std_g + eps)``, std over each group. Shapes ``[B, G]``.

    TRL ``scale_rewards="group"``; verl ``norm_adv_by_std_in_grpo=True``.
    """
    return centred / (reward_std(rewards, dim=1, unbiased=unbiased, valid=valid).unsqueeze(1) + eps)


@register_scale("batch")
def scale_by_batch_std(
    centred: torch.Tensor, rewards: torch.Tensor, *, eps: float, unbiased: bool,
    valid: torch.Tensor | None = None,
) -> torch.Tensor:
    """``A = (r - mean_g) / (std_batch + eps)``: one std over all B*G rewards. Shapes ``[B, G]``.

    TRL ``scale_rewards="batch"`` (the "Tricks or Traps" recommendation).
    """
    return centred / (reward_std(rewards, unbiased=unbiased, valid=valid) + eps)


@register_scale("none")
def no_scale(centred: torch.Tensor, rewards: torch.Tensor, *, eps: float, unbiased: bool,
             valid: torch.Tensor | None = None) -> torch.Tensor:
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
    valid: torch.Tensor | None = None,
) -> torch.Tensor:
    """Group-relative advantage of each of the ``N = B*G`` completions.

        A[i] = (r_i - mean(r_j : j in V_g)) / (std(r_j : j in V_g) + eps)    valid[i]
        A[i] = 0                                                             not valid[i]

    Args:
        rewards: ``[N]`` float tensor of sequence rewards, group after group. Finite where
            ``valid``; the value elsewhere is ignored (NaN is fine there).
        group_size: G, completions per prompt; must divide N.
        scale: ``"group"`` (GRPO/GSPO), ``"batch"`` or ``"none"`` (Dr.GRPO); see ``SCALES``.
        eps: added to the std (TRL uses 1e-4, verl 1e-6).
        unbiased: sample std (divide by G - 1, TRL and verl) if True, population std if False.
        valid: ``[N]`` bool, False for "no signal" completions (``reward=None``); they get
            advantage 0 and change no other member's advantage. None: all valid.

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
    if valid is not None:
        if (not isinstance(valid, torch.Tensor) or valid.dtype != torch.bool
                or valid.shape != rewards.shape):
            raise ValueError(f"valid must be a bool tensor of shape {tuple(rewards.shape)}")
        valid = valid.to(rewards.device)
        if bool(valid.all()):
            valid = None  # the unmasked path: torch's own mean and std, to the last bit
    if not torch.isfinite(rewards if valid is None else rewards[valid]).all():
        raise ValueError(
            "rewards contain NaN or inf; mark completions without a reward (reward=None) "
            "False in valid"
        )
    if valid is None:
        grouped = rewards.reshape(-1, group_size)
        centred = grouped - grouped.mean(dim=1, keepdim=True)
        high, low = grouped, grouped
        mask = None
    else:
        mask = valid.reshape(-1, group_size)
        grouped = torch.where(mask, rewards.reshape(-1, group_size), 0)
        count = mask.sum(dim=1, keepdim=True).clamp(min=1).to(grouped.dtype)
        centred = torch.where(mask, grouped - grouped.sum(dim=1, keepdim=True) / count, 0)
        high = grouped.masked_fill(~mask, -torch.inf)
        low = grouped.masked_fill(~mask, torch.inf)
    # An all-equal group's mean can differ from its values in the last bit (0.1 * 3 / 3), which
    # divided by a zero std would blow up to ~1e-13 or, with eps=0, to NaN; its advantage is 0.
    flat = high.amax(dim=1, keepdim=True) == low.amin(dim=1, keepdim=True)
    centred = centred.masked_fill(flat, 0.0)
    adv = SCALES[scale](centred, grouped, eps=eps, unbiased=unbiased, valid=mask)
    return torch.where(centred == 0, torch.zeros_like(adv), adv).view(-1)
