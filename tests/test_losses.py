"""policy_loss and its parts on examples small enough to check on paper."""

from __future__ import annotations

import dataclasses
import math

import pytest
import torch

from policy_opt.algorithm.losses import (
    NORMS,
    PRESETS,
    RATIOS,
    LossConfig,
    clipped_surrogate,
    k3_kl,
    policy_loss,
    resolve_config,
    sequence_ratio,
    sequence_token_ratio,
    token_ratio,
)

F64 = torch.float64


def t(rows):
    return torch.tensor(rows, dtype=F64)


def test_registries_hold_every_named_formula():
    assert set(RATIOS) == {"token", "sequence", "sequence_token"}
    assert set(NORMS) == {"sequence_mean", "token_mean", "constant"}
    assert set(PRESETS) == {"grpo", "dr_grpo", "gspo", "gspo_token"}


def test_presets_match_the_papers():
    assert PRESETS["grpo"] == LossConfig("token", "sequence_mean", 0.2, 0.2, 0.0, None, None,
                                         "group")
    assert (PRESETS["dr_grpo"].norm, PRESETS["dr_grpo"].adv_scale) == ("constant", "none")
    gspo = PRESETS["gspo"]
    assert (gspo.ratio_level, gspo.eps_low, gspo.eps_high, gspo.beta) == ("sequence", 3e-4, 4e-4,
                                                                          0.0)
    assert PRESETS["gspo_token"].ratio_level == "sequence_token"
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["grpo"].eps_low = 0.3  # type: ignore[misc]


def test_config_overrides_and_none_keeps_preset():
    cfg = LossConfig.from_algo("gspo", eps_high=5e-4, beta=None)
    assert (cfg.eps_high, cfg.eps_low, cfg.beta) == (5e-4, 3e-4, 0.0)
    assert LossConfig.from_algo(cfg, norm="token_mean").norm == "token_mean"
    assert PRESETS["gspo"].eps_high == 4e-4  # the preset itself is untouched


def test_token_ratio_clip_by_hand():
    # ratios 1.5 and 0.5 (old = 0). Row A=+1: -min(1.5, 1.2) = -1.2, -min(.5, .8) = -.5 -> -.85
    # Row A=-1: -min(-1.5, -1.2) = 1.5, -min(-.5, -.8) = .8 -> 1.15. Mean over rows: 0.15.
    logp = t([[math.log(1.5), math.log(0.5)]] * 2).requires_grad_()
    old = torch.zeros(2, 2, dtype=F64)
    loss, m = policy_loss(logp, old, t([1.0, -1.0]), torch.ones(2, 2), algo="grpo")
    assert loss.item() == pytest.approx(0.15, abs=1e-12)
    # Gradient flows only through unclipped terms: (row0, tok1) ratio .5 with A>0 -> d/dlogp of
    # -r*A/2/2 = -.5/4; (row1, tok0) ratio 1.5 with A<0 -> +1.5/4. The others are clipped.
    (grad,) = torch.autograd.grad(loss, logp)
    torch.testing.assert_close(grad, t([[0.0, -0.125], [0.375, 0.0]]), rtol=0, atol=1e-12)
    # clipped: (row0, tok0) high; (row1, tok1) low -> 1/4 each, 2/4 total; mean ratio 1.0
    assert (m["clip_frac_high"].item(), m["clip_frac_low"].item(), m["clip_frac"].item()) == (
        0.25, 0.25, 0.5)
    assert m["ratio_mean"].item() == pytest.approx(1.0)
    assert "kl" not in m


def test_on_policy_gradient_is_minus_advantage_over_length():
    # on-policy GRPO: d loss / d logp[i,t] = -A_i / (N |o_i|) on real tokens, 0 on padding
    logp = t([[-1.0, -2.0, -3.0], [-0.5, -0.1, -9.0]]).requires_grad_()
    mask = torch.tensor([[1, 1, 1], [1, 0, 0]])
    loss, _ = policy_loss(logp, None, t([2.0, -1.0]), mask, algo="grpo")
    (grad,) = torch.autograd.grad(loss, logp)
    expected = t([[-2 / 6, -2 / 6, -2 / 6], [1 / 2, 0, 0]])
    torch.testing.assert_close(grad, expected, rtol=0, atol=1e-12)
    assert loss.item() == pytest.approx((-2.0 + 1.0) / 2)


def test_on_policy_gspo_and_grpo_are_the_same_update():
    # With one pass over each batch (mu = 1) both ratios are 1 in value, so clipping never
    # acts and the gradients coincide: GSPO differs from GRPO only off-policy (mu > 1).
    torch.manual_seed(0)
    logp = (-torch.rand(4, 5, dtype=F64)).requires_grad_()
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0], [1, 1, 1, 0, 0]])
    adv = t([1.5, -0.5, 0.25, -1.25])
    grads = {}
    for algo in ("grpo", "gspo"):
        loss, _ = policy_loss(logp, logp.detach(), adv, mask, algo=algo)
        (grads[algo],) = torch.autograd.grad(loss, logp)
    torch.testing.assert_close(grads["gspo"], grads["grpo"], rtol=0, atol=1e-12)
    # One step off-policy they differ (the check above is not vacuous).
    old = logp.detach() - 0.3 * torch.rand(4, 5, dtype=F64)
    off = [torch.autograd.grad(policy_loss(logp, old, adv, mask, algo=a)[0], logp)[0]
           for a in ("grpo", "gspo")]
    assert not torch.allclose(off[0], off[1])


def test_sequence_ratio_is_length_normalised_geometric_mean():
    logp = t([[math.log(2.0), 0.0, 5.0]])
    mask = torch.tensor([[1.0, 1.0, 0.0]])
    s = sequence_ratio(logp, torch.zeros(1, 3, dtype=F64), mask)
    assert s.shape == (1, 1)
    assert s.item() == pytest.approx(math.sqrt(2.0))  # (2 * 1) ** (1/2); padding ignored
    assert token_ratio(logp, torch.zeros(1, 3, dtype=F64), mask)[0, 0].item() == pytest.approx(2)


def test_gspo_value_by_hand():
    # s = sqrt(2) = 1.414 > 1 + 4e-4 with A=+1: clipped to 1.0004 -> loss -1.0004.
    # Row 2: s = exp(-1e-4) ~ 0.9999 inside the band with A=-1 -> loss +0.9999.
    logp = t([[math.log(2.0), 0.0], [-1e-4, -9.0]])
    mask = torch.tensor([[1, 1], [1, 0]])
    loss, m = policy_loss(logp, torch.zeros(2, 2, dtype=F64), t([1.0, -1.0]), mask, algo="gspo")
    assert loss.item() == pytest.approx((-1.0004 + math.exp(-1e-4)) / 2, abs=1e-12)
    assert m["clip_frac_high"].item() == pytest.approx(2 / 3)  # 2 of the 3 real tokens


def test_gspo_token_equals_gspo_in_value_and_gradient_with_sequence_advantages():
    g = torch.Generator().manual_seed(0)
    logp = (-torch.rand(4, 5, generator=g, dtype=F64)).requires_grad_()
    old = logp.detach() + 1e-4 * torch.randn(4, 5, generator=g, dtype=F64)
    mask = (torch.rand(4, 5, generator=g) > 0.3).to(F64)
    adv = torch.randn(4, generator=g, dtype=F64)
    a, _ = policy_loss(logp, old, adv, mask, algo="gspo")
    b, _ = policy_loss(logp, old, adv, mask, algo="gspo_token")
    (ga,) = torch.autograd.grad(a, logp)
    (gb,) = torch.autograd.grad(b, logp)
    assert abs(a.item() - b.item()) < 1e-12
    torch.testing.assert_close(ga, gb, rtol=0, atol=1e-12)
    # value equals the sequence ratio on every token
    torch.testing.assert_close(sequence_token_ratio(logp, old, mask),
                               sequence_ratio(logp, old, mask).expand(4, 5))


def test_gspo_token_steers_gradient_per_token():
    logp = t([[-1.0, -1.0]]).requires_grad_()
    adv = t([[1.0, 0.0]])  # only token 0 carries advantage
    loss, _ = policy_loss(logp, None, adv, torch.ones(1, 2), algo="gspo_token")
    (grad,) = torch.autograd.grad(loss, logp)
    torch.testing.assert_close(grad, t([[-0.5, 0.0]]), rtol=0, atol=1e-12)
    # the sequence-level ratio spreads the same advantage over both tokens
    loss_seq, _ = policy_loss(logp, None, adv, torch.ones(1, 2), algo="gspo")
    (grad_seq,) = torch.autograd.grad(loss_seq, logp)
    torch.testing.assert_close(grad_seq, t([[-0.25, -0.25]]), rtol=0, atol=1e-12)


def test_dr_grpo_divides_by_constant_and_token_mean_by_count():
    logp = t([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]).requires_grad_()
    mask = torch.tensor([[1, 1, 1], [1, 0, 0]])
    adv = t([1.0, -2.0])  # on-policy per-token losses: -1 (3 tokens), +2 (1 token)
    dr, _ = policy_loss(logp, None, adv, mask, algo="dr_grpo", max_completion_length=10)
    assert dr.item() == pytest.approx((-3 + 2) / (2 * 10))
    tm, _ = policy_loss(logp, None, adv, mask, algo="grpo", norm="token_mean")
    assert tm.item() == pytest.approx((-3 + 2) / 4)
    sm, _ = policy_loss(logp, None, adv, mask, algo="grpo")
    assert sm.item() == pytest.approx((-1 + 2) / 2)


def test_k3_kl_by_hand_and_beta_term():
    logp, ref = t([[-1.0, -2.0]]), t([[-2.0, -2.0]])
    kl = k3_kl(logp, ref)
    torch.testing.assert_close(kl, t([[math.exp(-1) + 1 - 1, 0.0]]), rtol=0, atol=1e-12)
    assert (k3_kl(torch.randn(100, dtype=F64), torch.randn(100, dtype=F64)) >= 0).all()
    base, _ = policy_loss(logp, None, t([0.0]), torch.ones(1, 2), algo="grpo")
    loss, m = policy_loss(logp, None, t([0.0]), torch.ones(1, 2), algo="grpo", ref_logp=ref,
                          beta=0.5)
    assert loss.item() - base.item() == pytest.approx(0.5 * math.exp(-1) / 2)
    assert m["kl"].item() == pytest.approx(math.exp(-1) / 2)


def test_dual_clip_bounds_negative_advantage_ratio():
    r = t([[5.0]])
    assert clipped_surrogate(r, t([[-1.0]]), 0.2, 0.2).item() == 5.0
    assert clipped_surrogate(r, t([[-1.0]]), 0.2, 0.2, delta=3.0).item() == 3.0
    assert clipped_surrogate(r, t([[1.0]]), 0.2, 0.2, delta=3.0).item() == -1.2


def test_all_padding_row_adds_nothing_but_counts_as_a_row():
    logp = t([[-1.0, -1.0], [-1.0, -1.0]]).requires_grad_()
    mask = torch.tensor([[1, 1], [0, 0]])
    loss, _ = policy_loss(logp, None, t([1.0, 5.0]), mask, algo="grpo")
    (grad,) = torch.autograd.grad(loss, logp)
    assert loss.item() == pytest.approx(-1.0 / 2)
    assert torch.all(grad[1] == 0)


def test_half_precision_logp_is_computed_in_float32():
    logp = torch.zeros(2, 3, dtype=torch.bfloat16, requires_grad=True)
    old = torch.full((2, 3), -3e-4, dtype=torch.bfloat16)  # bf16 rounds it; fp32 math keeps it
    loss, _ = policy_loss(logp, old, torch.ones(2), torch.ones(2, 3), algo="gspo")
    assert loss.dtype == torch.float32
    loss.backward()
    assert logp.grad is not None and logp.grad.dtype == torch.bfloat16


def test_bool_and_float_masks_agree():
    g = torch.Generator().manual_seed(1)
    logp = -torch.rand(3, 4, generator=g, dtype=F64)
    old = logp + 0.1 * torch.randn(3, 4, generator=g, dtype=F64)
    adv = torch.randn(3, generator=g, dtype=F64)
    m = torch.rand(3, 4, generator=g) > 0.4
    a, _ = policy_loss(logp, old, adv, m, algo="grpo")
    b, _ = policy_loss(logp, old, adv, m.to(F64), algo="grpo")
    assert a.item() == b.item()


GOOD = {"logp": torch.zeros(2, 3), "old_logp": torch.zeros(2, 3), "adv": torch.zeros(2),
        "mask": torch.ones(2, 3)}


@pytest.mark.parametrize(
    ("change", "kwargs", "names"),
    [
        ({"old_logp": torch.zeros(2, 4)}, {}, "old_logp"),
        ({"mask": torch.ones(3, 3)}, {}, "mask"),
        ({"adv": torch.zeros(3)}, {}, "adv"),
        ({"adv": torch.zeros(2, 3, 1)}, {}, "adv"),
        ({"logp": torch.zeros(2, 3, dtype=torch.long)}, {}, "logp"),
        ({"logp": torch.zeros(6)}, {}, "logp"),
        ({"logp": [[0.0]]}, {}, "logp"),
        ({"old_logp": torch.zeros(2, 3, dtype=torch.int32)}, {}, "old_logp"),
        ({"adv": torch.zeros(2, dtype=torch.long)}, {}, "adv"),
        ({"mask": torch.full((2, 3), 2.0)}, {}, "mask"),
        ({}, {"algo": "ppo"}, "algo"),
        ({}, {"norm": "sum"}, "norm"),
        ({}, {"ratio_level": "seq"}, "ratio_level"),
        ({}, {"beta": 0.1}, "ref_logp"),
        ({}, {"beta": 0.1, "ref_logp": torch.zeros(2, 2)}, "ref_logp"),
        ({}, {"beta": -1.0}, "beta"),
        ({}, {"eps_low": 1.0}, "eps_low"),
        ({}, {"delta": 1.0}, "delta"),
        ({}, {"algo": "grpo", "delta": 1.1}, "delta"),
        ({}, {"algo": "dr_grpo"}, "max_completion_length"),
        ({}, {"algo": "dr_grpo", "max_completion_length": 0}, "max_completion_length"),
        ({}, {"num_tokens": 10}, "num_tokens"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(change, kwargs, names):
    args = {**GOOD, **change}
    with pytest.raises(ValueError, match=names):
        policy_loss(args["logp"], args["old_logp"], args["adv"], args["mask"], **kwargs)


def test_config_argument_replaces_algo_and_keywords_still_override():
    logp = t([[math.log(1.5), 0.0]])
    old = torch.zeros(1, 2, dtype=F64)
    cfg = resolve_config("grpo", eps_high=0.28, beta=None)
    assert cfg.eps_high == 0.28 and cfg.eps_low == 0.2
    a, _ = policy_loss(logp, old, t([1.0]), torch.ones(1, 2), algo="gspo", config=cfg)
    assert a.item() == pytest.approx(-(1.28 + 1.0) / 2)  # token ratios, clip-higher 0.28
    b, _ = policy_loss(logp, old, t([1.0]), torch.ones(1, 2), config=cfg, eps_high=0.6)
    assert b.item() == pytest.approx(-(1.5 + 1.0) / 2)


def test_padding_values_of_old_and_ref_logp_are_ignored():
    g = torch.Generator().manual_seed(2)
    logp = (-torch.rand(3, 4, generator=g, dtype=F64)).requires_grad_()
    old = logp.detach() + 0.3 * torch.randn(3, 4, generator=g, dtype=F64)
    ref = logp.detach() + 0.3 * torch.randn(3, 4, generator=g, dtype=F64)
    mask = torch.tensor([[1, 1, 1, 0], [1, 0, 0, 0], [1, 1, 1, 1]])
    adv = torch.randn(3, generator=g, dtype=F64)
    results = []
    for fill in (0.0, float("-inf"), float("nan")):
        o = old.masked_fill(mask == 0, fill)
        r = ref.masked_fill(mask == 0, fill)
        for level in ("token", "sequence"):
            loss, m = policy_loss(logp, o, adv, mask, algo="grpo", ratio_level=level,
                                  ref_logp=r, beta=0.1)
            (grad,) = torch.autograd.grad(loss, logp)
            assert torch.isfinite(loss) and torch.isfinite(grad).all()
            results.append((level, loss.item(), grad, m["ratio_mean"].item()))
    for level, loss, grad, ratio_mean in results[2:]:
        ref_level = results[0] if level == "token" else results[1]
        assert loss == pytest.approx(ref_level[1], abs=1e-12)
        torch.testing.assert_close(grad, ref_level[2], rtol=0, atol=1e-12)
        assert ratio_mean == pytest.approx(ref_level[3], abs=1e-12)


@pytest.mark.parametrize("algo", ["grpo", "dr_grpo", "gspo", "gspo_token"])
def test_padding_values_of_logp_and_token_advantages_are_ignored(algo):
    """A model can give a padding or env token -inf (a masked vocabulary entry); that must
    not turn the masked sums into NaN."""
    g = torch.Generator().manual_seed(3)
    base = -torch.rand(2, 4, generator=g, dtype=F64)
    old = base + 0.2 * torch.randn(2, 4, generator=g, dtype=F64)
    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 0]])
    adv = torch.randn(2, 4, generator=g, dtype=F64)
    kw = dict(algo=algo, max_completion_length=4, ref_logp=old, beta=0.05)

    def run(fill):
        logp = base.masked_fill(mask == 0, fill).requires_grad_()
        loss, m = policy_loss(logp, old, adv.masked_fill(mask == 0, fill), mask, **kw)
        (grad,) = torch.autograd.grad(loss, logp)
        return loss.item(), grad, m

    loss, grad, m = run(0.0)
    for fill in (float("-inf"), float("nan")):
        loss2, grad2, m2 = run(fill)
        assert loss2 == pytest.approx(loss, abs=1e-12)
        torch.testing.assert_close(grad2, grad, rtol=0, atol=1e-12)
        assert all(torch.isfinite(v) for v in m2.values())
        assert (grad2[mask == 0] == 0).all()
