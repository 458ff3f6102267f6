"""Clipped policy-gradient losses of GRPO, Dr.GRPO, GSPO and GSPO-token, on tensors alone.

Each formula (the README's ``--algo`` table: GRPO, Dr.GRPO, GSPO) is one pure function, registered by name (as in verl's
``core_algos.py``): importance ratios in ``RATIOS``, normalisers in ``NORMS``; plus the k3 KL
estimator and the clipped surrogate. ``policy_loss`` composes them; ``algo`` names a preset
(``PRESETS``, a ``LossConfig`` each) and keyword arguments override its knobs.

Shapes: N = B*G rows (completions), L padded completion length.
``logp``, ``old_logp``, ``ref_logp``, ``mask``: ``[N, L]``; ``adv``: ``[N]`` or ``[N, L]``.

Equivalence with TRL 1.16 ``GRPOTrainer._compute_loss`` (value and gradient equal to 1e-9 in
float64, see ``tests/test_losses_vs_trl.py``), with ``gradient_accumulation_steps=1``,
``num_processes=1``, ``use_vllm=False``, no entropy masking or bonus:

=====================================  =================================================
ours                                   TRL
=====================================  =================================================
``norm="sequence_mean"``               ``loss_type="grpo"``
``norm="token_mean"``                  ``loss_type="bnpo"``
``norm="token_mean", num_tokens=n``    ``loss_type="dapo"``, ``num_items_in_batch=n``
``norm="constant"``                    ``loss_type="dr_grpo"``
``ratio_level="token"``                ``importance_sampling_level="token"``
``ratio_level="sequence"``             ``importance_sampling_level="sequence"``
``ratio_level="sequence_token"``       (none in TRL 1.16; verl ``loss_mode="gspo"``)
``eps_low``, ``eps_high``, ``delta``   ``epsilon``, ``epsilon_high``, ``delta``
``beta``                               ``beta`` (k3 KL, ``use_bias_correction_kl=False``)
=====================================  =================================================

verl (``actor.policy_loss.loss_mode`` / ``loss_agg_mode``): ``sequence_mean`` =
``seq-mean-token-mean``, ``token_mean`` = ``token-mean``; ``constant`` is ``seq-mean-token-sum-norm``
divided by the row count N (verl divides the summed token losses by the constant only).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import torch

Tensor = torch.Tensor

# ---------------------------------------------------------------------------------------------
# Importance ratios
# ---------------------------------------------------------------------------------------------

RATIOS: dict[str, Callable[[Tensor, Tensor, Tensor], Tensor]] = {}
"""Importance-ratio functions by name: ``fn(logp, old_logp, mask) -> [N, L] or [N, 1]``."""


def register_ratio(name: str) -> Callable[[Callable[..., Tensor]], Callable[..., Tensor]]:
    """Decorator: register ``fn(logp [N,L], old_logp [N,L], mask [N,L]) -> ratio`` as ``name``."""

    def deco(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
        RATIOS[name] = fn
        return fn

    return deco


@register_ratio("token")
def token_ratio(logp: Tensor, old_logp: Tensor, mask: Tensor) -> Tensor:
    """GRPO's per-token ratio ``w[i,t] = exp(logp[i,t] - old_logp[i,t])``; ``[N, L]``.

    TRL ``importance_sampling_level="token"``; verl ``loss_mode="vanilla"``.

    >>> token_ratio(torch.tensor([[0.0, -1.0]]), torch.tensor([[0.0, -2.0]]), torch.ones(1, 2))
    tensor([[1.0000, 2.7183]])
    """
    return torch.exp(logp - old_logp)


def _row_sums(x: Tensor, mask: Tensor) -> Tensor:
    """``sum_t m[i,t] * x[i,t]`` for ``x`` of shape ``[N, L]`` or ``[N, 1]`` (one value per row,
    as a sequence ratio gives: then it is ``x_i * |o_i|`` without an ``[N, L]`` product)."""
    if x.shape[-1] == 1 and mask.shape[-1] != 1:
        return x.squeeze(-1) * mask.sum(-1)
    return (x * mask).sum(-1)


def _lengths(mask: Tensor) -> Tensor:
    # |o_i| with an all-padding row counted as 1 so that its (zero) sum stays 0, as TRL does.
    return mask.sum(-1).clamp(min=1.0)


@register_ratio("sequence")
def sequence_ratio(logp: Tensor, old_logp: Tensor, mask: Tensor) -> Tensor:
    """GSPO's length-normalised sequence ratio; ``[N, 1]``.

        s_i = exp( 1/|o_i| * sum_t m[i,t] (logp[i,t] - old_logp[i,t]) )

    An all-padding row has ``s_i = 1``. TRL ``importance_sampling_level="sequence"``.

    >>> sequence_ratio(torch.tensor([[0.0, -1.0]]), torch.tensor([[-1.0, -2.0]]), torch.ones(1, 2))
    tensor([[2.7183]])
    """
    return torch.exp(((logp - old_logp) * mask).sum(-1) / _lengths(mask)).unsqueeze(-1)


@register_ratio("sequence_token")
def sequence_token_ratio(logp: Tensor, old_logp: Tensor, mask: Tensor) -> Tensor:
    """GSPO-token: the sequence ratio's value with a per-token gradient; ``[N, L]``.

        s[i,t] = sg[s_i] * exp(logp[i,t] - sg[logp[i,t]])        (sg = stop-gradient)

    Its value equals ``sequence_ratio`` on every token; with a per-token advantage the gradient
    of token t is steered by ``A[i,t]`` alone. verl ``loss_mode="gspo"`` (which also clamps the
    log-ratio at 10; we do not). TRL 1.16 has no equivalent.
    """
    seq = sequence_ratio(logp, old_logp, mask).detach()
    return seq * torch.exp(logp - logp.detach())


# ---------------------------------------------------------------------------------------------
# Per-token terms
# ---------------------------------------------------------------------------------------------


def clipped_surrogate(
    ratio: Tensor, adv: Tensor, eps_low: float, eps_high: float, delta: float | None = None
) -> Tensor:
    """Negated PPO clipped objective per token (or per sequence); broadcast of the inputs.

        loss = -min( r * A, clip(r, 1 - eps_low, 1 + eps_high) * A ),   r <- min(r, delta)

    ``ratio``: ``[N, L]`` or ``[N, 1]``; ``adv``: ``[N, 1]`` or ``[N, L]``. ``delta`` (dual-clip,
    only binds for A < 0 since delta > 1 + eps_high) is TRL's ``delta``, verl's ``clip_ratio_c``.

    >>> clipped_surrogate(torch.tensor([[1.5]]), torch.tensor([[1.0]]), 0.2, 0.2)
    tensor([[-1.2000]])
    """
    clipped = ratio.clamp(1.0 - eps_low, 1.0 + eps_high)
    if delta is not None:
        ratio = ratio.clamp(max=delta)
    return -torch.min(ratio * adv, clipped * adv)


def k3_kl(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """Per-token k3 estimator of KL(pi_theta || pi_ref), always >= 0; ``[N, L]``.

        KL[i,t] = exp(ref_logp - logp) - (ref_logp - logp) - 1

    TRL's KL term (``beta``); verl ``kl_loss_type="low_var_kl"`` without its clamp.

    >>> k3_kl(torch.tensor([0.0]), torch.tensor([0.0]))
    tensor([0.])
    """
    d = ref_logp - logp
    return torch.exp(d) - d - 1.0


# ---------------------------------------------------------------------------------------------
# Normalisers: [N, L] (or [N, 1]) per-token loss + mask -> scalar
# ---------------------------------------------------------------------------------------------

NORMS: dict[str, Callable[..., Tensor]] = {}
"""Aggregation functions by name: ``fn(per_token, mask, *, max_completion_length, num_tokens)``."""


def register_norm(name: str) -> Callable[[Callable[..., Tensor]], Callable[..., Tensor]]:
    """Decorator: register an aggregation ``fn(per_token, mask, *, max_completion_length,
    num_tokens) -> scalar`` as ``name``."""

    def deco(fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
        NORMS[name] = fn
        return fn

    return deco


@register_norm("sequence_mean")
def sequence_mean(
    per_token: Tensor, mask: Tensor, *, max_completion_length: int | None = None,
    num_tokens: Tensor | float | None = None,
) -> Tensor:
    """GRPO/GSPO: mean over rows of each row's masked token mean.

        loss = 1/N * sum_i 1/|o_i| * sum_t m[i,t] * l[i,t]

    All-padding rows add 0 but count in N. TRL ``loss_type="grpo"``; verl
    ``seq-mean-token-mean``.
    """
    return (_row_sums(per_token, mask) / _lengths(mask)).mean()


@register_norm("token_mean")
def token_mean(
    per_token: Tensor, mask: Tensor, *, max_completion_length: int | None = None,
    num_tokens: Tensor | float | None = None,
) -> Tensor:
    """DAPO/BNPO: one mean over every real token of the batch.

        loss = sum_{i,t} m[i,t] * l[i,t] / max(1, T),   T = num_tokens or sum(m)

    ``num_tokens`` is the token count of the whole generation batch when the batch is split
    into micro-batches or over ranks (TRL ``loss_type="dapo"`` with ``num_items_in_batch``);
    without it this is TRL ``loss_type="bnpo"`` and verl ``token-mean``.
    """
    count = (mask.sum() if num_tokens is None
             else torch.as_tensor(num_tokens, dtype=mask.dtype, device=mask.device))
    return _row_sums(per_token, mask).sum() / count.clamp(min=1.0)


@register_norm("constant")
def constant_norm(
    per_token: Tensor, mask: Tensor, *, max_completion_length: int | None = None,
    num_tokens: Tensor | float | None = None,
) -> Tensor:
    """Dr.GRPO: token sum divided by a constant that does not depend on the outputs.

        loss = 1/N * sum_i 1/L_max * sum_t m[i,t] * l[i,t],   L_max = max_completion_length

    TRL ``loss_type="dr_grpo"``; verl ``seq-mean-token-sum-norm`` / N.
    """
    if max_completion_length is None:
        raise ValueError("max_completion_length is required for norm='constant' (Dr.GRPO divides "
                         "by the generation budget)")
    return _row_sums(per_token, mask).sum() / (per_token.shape[0] * max_completion_length)


# ---------------------------------------------------------------------------------------------
# Presets
# ---------------------------------------------------------------------------------------------

ADV_SCALES = ("group", "batch", "none")


@dataclass(frozen=True)
class LossConfig:
    """Every knob of the loss, plus the advantage scaling the algorithm pairs with it.

    Build one from a preset and overrides (``LossConfig.from_algo("gspo", eps_high=5e-4)``);
    ``None`` overrides keep the preset's value. Invalid values raise ``ValueError`` naming the
    field.

    >>> LossConfig.from_algo("dr_grpo", max_completion_length=256).norm
    'constant'
    """

    ratio_level: str = "token"
    norm: str = "sequence_mean"
    eps_low: float = 0.2
    eps_high: float = 0.2
    beta: float = 0.0
    delta: float | None = None
    max_completion_length: int | None = None
    adv_scale: str = "group"

    def __post_init__(self) -> None:
        if self.ratio_level not in RATIOS:
            raise ValueError(f"ratio_level must be one of {sorted(RATIOS)}, got {self.ratio_level!r}")
        if self.norm not in NORMS:
            raise ValueError(f"norm must be one of {sorted(NORMS)}, got {self.norm!r}")
        if self.adv_scale not in ADV_SCALES:
            raise ValueError(f"adv_scale must be one of {list(ADV_SCALES)}, got {self.adv_scale!r}")
        for name in ("eps_low", "eps_high", "beta"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        if not self.eps_low < 1:
            raise ValueError(f"eps_low must be < 1 (the lower clip bound is 1 - eps_low), "
                             f"got {self.eps_low!r}")
        if self.delta is not None and not (
            isinstance(self.delta, (int, float)) and self.delta > 1 + self.eps_high
        ):
            raise ValueError(f"delta must be > 1 + eps_high ({1 + self.eps_high}), got {self.delta!r}")
        m = self.max_completion_length
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
            raise ValueError(f"max_completion_length must be a positive int, got {m!r}")

    def replace(self, **overrides: object) -> LossConfig:
        """A copy with the non-None ``overrides`` applied (unknown names raise ValueError)."""
        known = {f.name for f in dataclasses.fields(self)}
        for key in overrides:
            if key not in known:
                raise ValueError(f"unknown loss option {key!r}; known: {sorted(known)}")
        changes = {k: v for k, v in overrides.items() if v is not None}
        return dataclasses.replace(self, **changes) if changes else self

    @classmethod
    def from_algo(cls, algo: str | LossConfig, **overrides: object) -> LossConfig:
        """Resolve a preset name (or an existing config) and apply non-None overrides."""
        if isinstance(algo, LossConfig):
            return algo.replace(**overrides)
        if algo not in PRESETS:
            raise ValueError(f"algo must be one of {sorted(PRESETS)} or a LossConfig, got {algo!r}")
        return PRESETS[algo].replace(**overrides)


PRESETS: dict[str, LossConfig] = {
    # DeepSeekMath GRPO. TRL: loss_type="grpo", importance_sampling_level="token", epsilon=0.2,
    # scale_rewards="group", beta=0.0 (TRL's default; DeepSeekMath used 0.04, set beta= for it).
    # verl: loss_mode="vanilla", loss_agg_mode="seq-mean-token-mean", norm_adv_by_std_in_grpo=True.
    "grpo": LossConfig("token", "sequence_mean", 0.2, 0.2, 0.0, None, None, "group"),
    # Dr.GRPO: no std, token sum / max_completion_length (pass it, it is the generation budget).
    # TRL: loss_type="dr_grpo", scale_rewards="none". verl: seq-mean-token-sum-norm (x N, above),
    # norm_adv_by_std_in_grpo=False.
    "dr_grpo": LossConfig("token", "constant", 0.2, 0.2, 0.0, None, None, "none"),
    # GSPO, the paper's clip range. TRL: loss_type="grpo", importance_sampling_level="sequence",
    # epsilon=3e-4, epsilon_high=4e-4, beta=0. verl: loss_mode="gspo",
    # loss_agg_mode="seq-mean-token-mean", clip_ratio_low=3e-4, clip_ratio_high=4e-4.
    "gspo": LossConfig("sequence", "sequence_mean", 3e-4, 4e-4, 0.0, None, None, "group"),
    # GSPO-token: GSPO's value, per-token gradient (for per-token advantages). verl: as gspo.
    "gspo_token": LossConfig("sequence_token", "sequence_mean", 3e-4, 4e-4, 0.0, None, None,
                             "group"),
}
"""Algorithm presets by name; ``PRESETS[algo].adv_scale`` is the matching ``scale`` of
``policy_opt.algorithm.advantages.group_advantages``."""


def resolve_config(algo: str | LossConfig, **overrides: object) -> LossConfig:
    """The preset ``algo`` with the non-None ``overrides`` applied (for CLI flags that default
    to None = "the preset's"). Same as ``LossConfig.from_algo``.

    >>> resolve_config("grpo", eps_high=0.28, beta=None).eps_high
    0.28
    """
    return LossConfig.from_algo(algo, **overrides)


# ---------------------------------------------------------------------------------------------
# The loss
# ---------------------------------------------------------------------------------------------


def _check_logp_like(name: str, x: object, shape: torch.Size, device: torch.device) -> Tensor:
    if not isinstance(x, Tensor):
        raise ValueError(f"{name} must be a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise ValueError(f"{name} must be a floating-point tensor, got dtype {x.dtype}")
    if x.shape != shape:
        raise ValueError(f"{name} must have the shape of logp {tuple(shape)}, got {tuple(x.shape)}")
    if x.device != device:
        raise ValueError(f"{name} is on {x.device} but logp is on {device}")
    return x


def policy_loss(
    logp: Tensor,
    old_logp: Tensor | None,
    adv: Tensor,
    mask: Tensor,
    algo: str | LossConfig = "gspo",
    ref_logp: Tensor | None = None,
    beta: float | None = None,
    *,
    eps_low: float | None = None,
    eps_high: float | None = None,
    ratio_level: str | None = None,
    norm: str | None = None,
    max_completion_length: int | None = None,
    delta: float | None = None,
    num_tokens: Tensor | float | None = None,
    config: LossConfig | None = None,
    check_values: bool = True,
) -> tuple[Tensor, dict[str, Tensor]]:
    """The clipped policy-gradient loss (to minimise) of GRPO, Dr.GRPO, GSPO or GSPO-token.

        r        = RATIOS[ratio_level](logp, old_logp, mask)             [N,L] or [N,1]
        l[i,t]   = -min(r A, clip(r, 1-eps_low, 1+eps_high) A) + beta * KL_k3[i,t]
        loss     = NORMS[norm](l, mask)                                   scalar

    Args:
        logp: ``[N, L]`` log-probs of the sampled tokens under the policy being trained (with
            gradient). Half-precision inputs are computed in float32 (a bf16 ratio cannot
            resolve GSPO's 3e-4 clip range).
        old_logp: ``[N, L]`` log-probs under the sampling policy; ``None`` = on-policy
            (``logp.detach()``: ratio 1, gradient of ``logp``). Its values (and ``ref_logp``'s,
            ``logp``'s and a per-token ``adv``'s) at padding positions are ignored, even
            inf/NaN: they get no gradient and add nothing.
        adv: ``[N]`` sequence advantages or ``[N, L]`` per-token advantages.
        mask: ``[N, L]`` 1 on completion tokens the model sampled, 0 on padding/env tokens
            (bool, int or float holding 0/1).
        algo: a name in ``PRESETS`` or a ``LossConfig``; the keywords below override it.
        ref_logp: ``[N, L]`` reference-policy log-probs; required when beta > 0.
        beta, eps_low, eps_high, ratio_level, norm, max_completion_length, delta: override
            the preset's knob (``None`` keeps it); see ``LossConfig``.
        num_tokens: global token count for ``norm="token_mean"`` across micro-batches/ranks
            (TRL's DAPO ``num_items_in_batch``); default: this batch's ``mask.sum()``.
        config: a resolved ``LossConfig`` (e.g. built once from CLI flags by
            ``resolve_config``); when given it replaces ``algo``, and the keywords above still
            override it.
        check_values: check that ``mask`` holds only 0 and 1 (reads the answer back from
            the device: a caller that built the mask itself, as the trainer does per
            micro-batch, passes ``False``). Shapes, dtypes and devices are always checked.

    Returns:
        ``(loss, metrics)``: a scalar tensor, and detached 0-d tensors ``clip_frac_low``
        (ratio below 1-eps_low with A<0), ``clip_frac_high`` (above 1+eps_high with A>0),
        ``clip_frac`` (either), ``ratio_mean``, and ``kl`` when beta > 0: all means over the
        real tokens (a sequence ratio counts once per token of its row, as the GSPO paper's
        clipped-token fractions do; TRL counts sequence-level clips once per row).

    >>> logp = torch.tensor([[-1.0, -2.0], [-0.5, 0.0]], requires_grad=True)
    >>> mask = torch.tensor([[1, 1], [1, 0]])
    >>> loss, m = policy_loss(logp, None, torch.tensor([1.0, -1.0]), mask, algo="grpo")
    >>> loss.item(), m["ratio_mean"].item()          # on-policy: ratio 1, loss = -mean(A)
    (0.0, 1.0)
    """
    cfg = LossConfig.from_algo(
        algo if config is None else config, beta=beta, eps_low=eps_low, eps_high=eps_high,
        ratio_level=ratio_level, norm=norm,
        max_completion_length=max_completion_length, delta=delta,
    )
    if not isinstance(logp, Tensor):
        raise ValueError(f"logp must be a torch.Tensor, got {type(logp).__name__}")
    if not logp.is_floating_point():
        raise ValueError(f"logp must be a floating-point tensor, got dtype {logp.dtype}")
    if logp.dim() != 2 or logp.shape[0] == 0:
        raise ValueError(f"logp must be [N, L] with N >= 1, got shape {tuple(logp.shape)}")
    shape, device = logp.shape, logp.device
    dtype = torch.promote_types(logp.dtype, torch.float32)
    logp = logp.to(dtype)
    if old_logp is None:
        old_logp = logp.detach()
    else:
        old_logp = _check_logp_like("old_logp", old_logp, shape, device).to(dtype)
    if not isinstance(mask, Tensor):
        raise ValueError(f"mask must be a torch.Tensor, got {type(mask).__name__}")
    if mask.shape != shape:
        raise ValueError(f"mask must have the shape of logp {tuple(shape)}, got {tuple(mask.shape)}")
    if mask.device != device:
        raise ValueError(f"mask is on {mask.device} but logp is on {device}")
    if mask.dtype != torch.bool and check_values:
        if mask.is_floating_point():
            bad = bool(((mask != 0) & (mask != 1)).any())
        elif mask.is_complex():
            bad = True
        else:  # integers: one pass
            lo, hi = torch.aminmax(mask)
            bad = bool(lo < 0) or bool(hi > 1)
        if bad:
            raise ValueError("mask must hold only 0 and 1")
    mask = mask.to(dtype)
    if not isinstance(adv, Tensor):
        raise ValueError(f"adv must be a torch.Tensor, got {type(adv).__name__}")
    if not adv.is_floating_point():
        raise ValueError(f"adv must be a floating-point tensor, got dtype {adv.dtype}")
    if adv.shape not in (shape[:1], shape):
        raise ValueError(f"adv must be [N] {tuple(shape[:1])} or [N, L] {tuple(shape)}, "
                         f"got {tuple(adv.shape)}")
    if adv.device != device:
        raise ValueError(f"adv is on {adv.device} but logp is on {device}")
    adv = adv.to(dtype)
    if adv.dim() == 1:
        adv = adv.unsqueeze(1)
    if cfg.beta > 0:
        if ref_logp is None:
            raise ValueError(f"ref_logp is required when beta > 0 (beta={cfg.beta})")
        ref_logp = _check_logp_like("ref_logp", ref_logp, shape, device).to(dtype)
    if num_tokens is not None and cfg.norm != "token_mean":
        raise ValueError(f"num_tokens applies only to norm='token_mean', not {cfg.norm!r}")
    if cfg.norm == "constant" and cfg.max_completion_length is None:
        raise ValueError("max_completion_length is required for norm='constant' (Dr.GRPO divides "
                         "by the generation budget)")

    # Padding positions of old_logp/ref_logp may hold anything (engines often leave -inf or 0
    # there); inf * 0 would make the masked sums NaN, so they are set to logp: ratio 1, KL 0.
    # The same goes for logp itself (a model that gives a token -inf, as a vocabulary mask
    # does, at a padding or env-token position) and for a per-token advantage's padding.
    real = mask.bool()
    logp = torch.where(real, logp, torch.zeros((), dtype=dtype, device=device))
    if adv.shape == shape:
        adv = torch.where(real, adv, torch.zeros((), dtype=dtype, device=device))
    old_logp = torch.where(real, old_logp, logp.detach())
    if ref_logp is not None and cfg.beta > 0:
        ref_logp = torch.where(real, ref_logp, logp.detach())
    ratio = RATIOS[cfg.ratio_level](logp, old_logp, mask)
    per_token = clipped_surrogate(ratio, adv, cfg.eps_low, cfg.eps_high, cfg.delta)
    kl = None
    if cfg.beta > 0:
        kl = k3_kl(logp, ref_logp)
        per_token = per_token + cfg.beta * kl
    loss = NORMS[cfg.norm](per_token, mask, max_completion_length=cfg.max_completion_length,
                           num_tokens=num_tokens)

    with torch.no_grad():
        count = mask.sum().clamp(min=1.0)

        def token_avg(x: Tensor) -> Tensor:
            return _row_sums(x, mask).sum() / count

        r = ratio.detach()
        low = (r < 1.0 - cfg.eps_low) & (adv < 0)
        high = (r > 1.0 + cfg.eps_high) & (adv > 0)
        metrics = {
            "clip_frac_low": token_avg(low.to(dtype)),
            "clip_frac_high": token_avg(high.to(dtype)),
            "clip_frac": token_avg((low | high).to(dtype)),
            "ratio_mean": token_avg(r),
        }
        if kl is not None:
            metrics["kl"] = token_avg(kl.detach())
    return loss, metrics
