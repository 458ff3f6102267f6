"""policy_loss against TRL 1.16's own GRPOTrainer loss code, value and gradient, in float64.

How TRL's code is called without a model: ``GRPOTrainer._compute_loss`` reads only a handful of
attributes, so the trainer is created with ``object.__new__`` (no ``__init__``, no model) and
given exactly those, and its ``_get_per_token_logps_and_entropies`` is replaced by a function
returning our ``logp`` tensor. Stand-ins (all neutral for the loss value):

- ``accelerator``: one process; ``gather``/``reduce`` return their input (single-process).
- ``current_gradient_accumulation_steps = 1`` and ``args.steps_per_generation = 1``: TRL divides
  grpo/bnpo/dr_grpo losses by the accumulation steps, and rescales dapo's ``num_items_in_batch``
  by accumulation/steps_per_generation; with 1 and 1 neither changes the value.
- ``model.training = True`` (mode "train"), ``use_vllm = False``, ``top_entropy_quantile = 1``,
  ``off_policy_mask_threshold = None``, no entropy bonus, no aux loss,
  ``args.use_bias_correction_kl = False``.

Mapping (see ``policy_opt.algorithm.losses``): grpo -> norm="sequence_mean"; bnpo -> "token_mean";
dapo -> "token_mean" with ``num_tokens = num_items_in_batch``; dr_grpo -> "constant".
Nothing is excluded: every loss type matches at both levels, with and without KL, including the
all-padding row (TRL and we both count it as a row of loss 0) and dapo's global normaliser
(shown with a ``num_items_in_batch`` that differs from the local token count).
"""

from __future__ import annotations

import collections
import types

import pytest
import torch

# Imported for real, not skipped when absent: TRL is a dev dependency and this file exists to
# run TRL's own code.
from trl.trainer.grpo_trainer import GRPOTrainer

from policy_opt.algorithm.losses import policy_loss

NORM_OF = {"grpo": "sequence_mean", "bnpo": "token_mean", "dapo": "token_mean",
           "dr_grpo": "constant"}
EPS_LOW, EPS_HIGH, MAX_LEN = 0.2, 0.28, 9


class _OneProcess:
    """Single-process stand-in for accelerate.Accelerator (only what the loss code calls)."""

    num_processes = 1
    sync_gradients = True

    def gather(self, x):
        return x

    gather_for_metrics = gather

    def reduce(self, x, reduction="sum"):
        return x


def trl_loss(logp, old_logp, adv, mask, *, loss_type, level, beta=0.0, ref_logp=None,
             delta=None, num_items=None, eps_low=EPS_LOW, eps_high=EPS_HIGH):
    """Run TRL's GRPOTrainer._compute_loss on these tensors; return (loss, TRL's metrics)."""
    t = object.__new__(GRPOTrainer)
    t.loss_type, t.importance_sampling_level = loss_type, level
    t.epsilon_low, t.epsilon_high, t.beta = eps_low, eps_high, beta
    t.max_completion_length = MAX_LEN
    t.top_entropy_quantile, t.off_policy_mask_threshold = 1.0, None
    t.use_vllm, t.vllm_importance_sampling_correction = False, False
    t._entropy_bonus_enabled, t.aux_loss_enabled = False, False
    t.current_gradient_accumulation_steps = 1
    t.accelerator = _OneProcess()
    t.model = types.SimpleNamespace(training=True)
    t.args = types.SimpleNamespace(use_bias_correction_kl=False, delta=delta, steps_per_generation=1)
    t._metrics = {"train": collections.defaultdict(list), "eval": collections.defaultdict(list)}
    t._get_per_token_logps_and_entropies = lambda *a, **k: (logp, torch.zeros_like(logp), None)
    n, length = logp.shape
    m = mask.long()
    inputs = {
        "prompt_ids": torch.zeros(n, 1, dtype=torch.long),
        "prompt_mask": torch.ones(n, 1, dtype=torch.long),
        "completion_ids": torch.zeros(n, length, dtype=torch.long),
        "completion_mask": m,
        "advantages": adv,
        "old_per_token_logps": old_logp,
        "num_items_in_batch": torch.tensor(float(m.sum() if num_items is None else num_items)),
    }
    if ref_logp is not None:
        inputs["ref_per_token_logps"] = ref_logp
    return t._compute_loss(None, inputs), t._metrics["train"]


def make_batch(seed: int, n: int = 8, length: int = 7):
    """Random float64 batch: ragged mask, a length-1 row, an all-padding row, and old log-probs
    shifted per row so that token and sequence ratios clip on both sides."""
    g = torch.Generator().manual_seed(seed)
    logp = (-torch.rand(n, length, generator=g, dtype=torch.float64) * 3).requires_grad_()
    lengths = torch.randint(2, length + 1, (n,), generator=g)
    lengths[1], lengths[2] = 1, 0  # a length-1 row and an all-padding row
    mask = (torch.arange(length) < lengths[:, None]).to(torch.float64)
    adv = torch.randn(n, generator=g, dtype=torch.float64)
    adv[0], adv[3], adv[4], adv[5] = 1.0, -1.0, 1.0, -1.0
    # Row shifts: rows 0/4 have ratio > 1 + eps (A > 0: high clip), rows 3/5 ratio < 1 - eps
    # (A < 0: low clip); the noise leaves other tokens inside and outside the band.
    shift = torch.zeros(n, 1, dtype=torch.float64)
    shift[0], shift[4], shift[3], shift[5] = 0.5, 0.4, -0.5, -0.4
    noise = torch.randn(n, length, generator=g, dtype=torch.float64) * 0.3
    old = (logp.detach() - shift + noise).clamp(max=0.0)
    ref = (logp.detach() + torch.randn(n, length, generator=g, dtype=torch.float64) * 0.3)
    return logp, old, adv, mask, ref.clamp(max=0.0)


CASES = [(lt, level, beta) for lt in NORM_OF for level in ("token", "sequence")
         for beta in (0.0, 0.04)]


@pytest.mark.parametrize(("loss_type", "level", "beta"), CASES)
@pytest.mark.parametrize("seed", [0, 1])
def test_value_and_gradient_equal_trl(loss_type, level, beta, seed):
    logp, old, adv, mask, ref = make_batch(seed)
    ref_arg = ref if beta > 0 else None
    theirs, trl_metrics = trl_loss(logp, old, adv, mask, loss_type=loss_type, level=level,
                                   beta=beta, ref_logp=ref_arg)
    (g_theirs,) = torch.autograd.grad(theirs, logp)
    ours, metrics = policy_loss(
        logp, old, adv, mask, algo="grpo", ref_logp=ref_arg, beta=beta, ratio_level=level,
        norm=NORM_OF[loss_type], eps_low=EPS_LOW, eps_high=EPS_HIGH, max_completion_length=MAX_LEN,
    )
    (g_ours,) = torch.autograd.grad(ours, logp)
    assert ours.dtype == torch.float64
    assert abs(ours.item() - theirs.item()) <= 1e-9
    torch.testing.assert_close(g_ours, g_theirs, rtol=0, atol=1e-9)
    # the batch is built so that both clip sides are active (else the test proves little)
    assert metrics["clip_frac_low"] > 0 and metrics["clip_frac_high"] > 0
    assert g_ours.abs().sum() > 0
    assert torch.all(g_ours[2] == 0)  # all-padding row: no gradient
    if beta > 0:
        # TRL's kl metric is the same masked token mean
        assert abs(metrics["kl"].item() - trl_metrics["kl"][0]) <= 1e-9
    if level == "token":
        # TRL's clip metrics are float32 token means, same definition as ours
        for ours_key, trl_key in (("clip_frac_low", "clip_ratio/low_mean"),
                                  ("clip_frac_high", "clip_ratio/high_mean"),
                                  ("clip_frac", "clip_ratio/region_mean")):
            assert abs(metrics[ours_key].item() - trl_metrics[trl_key][0]) <= 1e-6


@pytest.mark.parametrize("level", ["token", "sequence"])
def test_dapo_global_token_normaliser(level):
    """dapo divides by num_items_in_batch (tokens of the whole generation batch), not by this
    micro-batch's count: our num_tokens= reproduces it, and differs from bnpo when they differ."""
    logp, old, adv, mask, _ = make_batch(3)
    global_tokens = int(mask.sum()) * 3  # as if this were one of three micro-batches
    theirs, _ = trl_loss(logp, old, adv, mask, loss_type="dapo", level=level,
                         num_items=global_tokens)
    (g_theirs,) = torch.autograd.grad(theirs, logp)
    ours, _ = policy_loss(logp, old, adv, mask, algo="grpo", ratio_level=level, norm="token_mean",
                          eps_low=EPS_LOW, eps_high=EPS_HIGH, num_tokens=global_tokens)
    (g_ours,) = torch.autograd.grad(ours, logp)
    assert abs(ours.item() - theirs.item()) <= 1e-9
    torch.testing.assert_close(g_ours, g_theirs, rtol=0, atol=1e-9)
    local, _ = policy_loss(logp, old, adv, mask, algo="grpo", ratio_level=level,
                           norm="token_mean", eps_low=EPS_LOW, eps_high=EPS_HIGH)
    assert abs(local.item() - 3 * ours.item()) <= 1e-9 and abs(local.item()) > 1e-6


def test_dual_clip_delta_equals_trl():
    logp, old, adv, mask, _ = make_batch(4)
    old = old - 1.5 * (adv < 0).to(old.dtype)[:, None]  # ratios ~4.5 on negative-advantage rows
    theirs, _ = trl_loss(logp, old, adv, mask, loss_type="grpo", level="token", delta=3.0)
    (g_theirs,) = torch.autograd.grad(theirs, logp)
    ours, _ = policy_loss(logp, old, adv, mask, algo="grpo", eps_low=EPS_LOW, eps_high=EPS_HIGH,
                          delta=3.0)
    (g_ours,) = torch.autograd.grad(ours, logp)
    without, _ = policy_loss(logp, old, adv, mask, algo="grpo", eps_low=EPS_LOW,
                             eps_high=EPS_HIGH)
    assert abs(ours.item() - theirs.item()) <= 1e-9
    torch.testing.assert_close(g_ours, g_theirs, rtol=0, atol=1e-9)
    assert without.item() > ours.item() + 1e-3  # delta bounds the negative-advantage rows


def test_gspo_preset_equals_trl_sequence_level():
    """algo="gspo" with no overrides is TRL loss_type="grpo", importance_sampling_level=
    "sequence", epsilon=3e-4, epsilon_high=4e-4, beta=0."""
    logp, _, adv, mask, _ = make_batch(5)
    g = torch.Generator().manual_seed(5)
    old = logp.detach() + torch.randn(logp.shape, generator=g, dtype=torch.float64) * 2e-3
    theirs, _ = trl_loss(logp, old, adv, mask, loss_type="grpo", level="sequence",
                         eps_low=3e-4, eps_high=4e-4)
    (g_theirs,) = torch.autograd.grad(theirs, logp)
    ours, metrics = policy_loss(logp, old, adv, mask, algo="gspo")
    (g_ours,) = torch.autograd.grad(ours, logp)
    assert abs(ours.item() - theirs.item()) <= 1e-9
    torch.testing.assert_close(g_ours, g_theirs, rtol=0, atol=1e-9)
    assert 0 < metrics["clip_frac"].item() < 1


@pytest.mark.parametrize("loss_type", list(NORM_OF))
@pytest.mark.parametrize("level", ["token", "sequence"])
def test_single_token_completions_equal_trl(loss_type, level):
    """L = 1: token and sequence ratios coincide; one padded row."""
    logp = torch.tensor([[-0.5], [-1.0], [-2.0]], dtype=torch.float64, requires_grad=True)
    old = torch.tensor([[-1.0], [-0.2], [-2.1]], dtype=torch.float64)
    adv = torch.tensor([1.0, -1.0, 0.5], dtype=torch.float64)
    mask = torch.tensor([[1.0], [1.0], [0.0]], dtype=torch.float64)
    theirs, _ = trl_loss(logp, old, adv, mask, loss_type=loss_type, level=level)
    (g_theirs,) = torch.autograd.grad(theirs, logp)
    ours, _ = policy_loss(logp, old, adv, mask, algo="grpo", ratio_level=level,
                          norm=NORM_OF[loss_type], eps_low=EPS_LOW, eps_high=EPS_HIGH,
                          max_completion_length=MAX_LEN)
    (g_ours,) = torch.autograd.grad(ours, logp)
    assert abs(ours.item() - theirs.item()) <= 1e-9
    torch.testing.assert_close(g_ours, g_theirs, rtol=0, atol=1e-9)
