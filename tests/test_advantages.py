"""group_advantages: the seed's worked example, degenerate groups, TRL's formula, bad input."""

from __future__ import annotations

import statistics

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from policy_opt.algorithm.advantages import SCALES, group_advantages, reward_std
from policy_opt.algorithm.losses import PRESETS

F64 = torch.float64
SEED_HARD = [0.0, 0.2, 0.2, 0.0, 0.0, 0.1, 0.0, 0.0]
SEED_BALANCED = [0.2, 0.9, 1.0, 0.4, 1.0, 0.1, 0.9, 0.0]


def test_seed_worked_example_uses_the_population_std():
    # The seed text: mean 0.0625 / std 0.0857 and mean 0.5625 / std 0.4029. Both figures are
    # the population std (divide by G); the sample std (divide by G-1) is 0.0916 / 0.4307.
    for rewards, mean, pop_std in ((SEED_HARD, 0.0625, 0.0857), (SEED_BALANCED, 0.5625, 0.4029)):
        r = torch.tensor(rewards, dtype=F64)
        assert r.mean().item() == pytest.approx(mean)
        assert round(reward_std(r, unbiased=False).item(), 4) == pop_std
        assert round(reward_std(r).item(), 4) == round(statistics.stdev(rewards), 4) != pop_std


@pytest.mark.parametrize("unbiased", [True, False])
def test_seed_example_advantages_by_hand(unbiased):
    r = torch.tensor(SEED_HARD, dtype=F64)
    adv = group_advantages(r, group_size=8, unbiased=unbiased)
    std = statistics.stdev(SEED_HARD) if unbiased else statistics.pstdev(SEED_HARD)
    expected = [(x - 0.0625) / (std + 1e-4) for x in SEED_HARD]
    torch.testing.assert_close(adv, torch.tensor(expected, dtype=F64), rtol=0, atol=1e-12)
    # the seed's point: the hard group's advantages are > 4x the balanced group's per unit reward
    bal = torch.tensor(SEED_BALANCED, dtype=F64)
    scale_hard = 1 / (reward_std(r, unbiased=unbiased) + 1e-4)
    scale_bal = 1 / (reward_std(bal, unbiased=unbiased) + 1e-4)
    assert scale_hard / scale_bal > 4


def test_dr_grpo_does_not_divide_by_std():
    r = torch.tensor(SEED_HARD, dtype=F64)
    adv = group_advantages(r, group_size=8, scale="none")
    torch.testing.assert_close(adv, r - 0.0625, rtol=0, atol=1e-15)
    assert PRESETS["dr_grpo"].adv_scale == "none" and PRESETS["grpo"].adv_scale == "group"
    assert set(SCALES) == {"group", "batch", "none"}


def test_batch_scale_uses_one_std_for_all_groups():
    r = torch.tensor([1.0, 0.0, 3.0, 1.0], dtype=F64)
    adv = group_advantages(r, group_size=2, scale="batch", eps=0.0)
    s = statistics.stdev([1.0, 0.0, 3.0, 1.0])
    torch.testing.assert_close(adv, torch.tensor([0.5, -0.5, 1.0, -1.0], dtype=F64) / s)


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
@pytest.mark.parametrize("eps", [1e-4, 0.0])
def test_groups_of_one_and_all_equal_groups_give_exact_zero(scale, eps):
    ones = group_advantages(torch.tensor([0.3, 1.0, 7.0]), group_size=1, scale=scale, eps=eps)
    assert torch.equal(ones, torch.zeros(3))
    # 0.1 * 3 / 3 != 0.1 in floating point: the mean alone would leave ~1e-17 residues
    flat = torch.tensor([0.1, 0.1, 0.1, 0.7, 0.7, 0.7], dtype=F64)
    adv = group_advantages(flat, group_size=3, scale=scale, eps=eps)
    assert torch.equal(adv, torch.zeros(6, dtype=F64))
    mixed = torch.tensor([0.1, 0.1, 0.1, 0.0, 1.0, 1.0], dtype=F64)
    adv = group_advantages(mixed, group_size=3, scale=scale, eps=eps)
    assert torch.equal(adv[:3], torch.zeros(3, dtype=F64)) and not torch.isnan(adv).any()
    assert adv[3] < 0 < adv[4]


def test_matches_trl_formula():
    from trl.trainer.utils import nanstd

    g = torch.Generator().manual_seed(0)
    r = torch.rand(24, generator=g, dtype=F64).round(decimals=1)
    grouped = r.view(-1, 6)
    trl = (grouped - grouped.mean(1, keepdim=True)) / (nanstd(grouped, dim=1).unsqueeze(1) + 1e-4)
    # TRL's nanstd forms its n/(n-1) correction in float32 (int / int), hence ~1e-8, not 1e-15
    torch.testing.assert_close(group_advantages(r, group_size=6), trl.view(-1), rtol=1e-6,
                               atol=1e-12)


@settings(max_examples=50, deadline=None, derandomize=True)
@given(st.integers(1, 4), st.integers(1, 6), st.data(), st.integers(-50, 50).map(lambda k: k / 10))
def test_properties_zero_mean_per_group_and_shift_invariance(g, groups, data, shift):
    # rewards on a 0.1 grid: distinct rewards stay distinct after the shift (no absorption)
    values = data.draw(st.lists(st.integers(-100, 100).map(lambda k: k / 10),
                                min_size=g * groups, max_size=g * groups))
    r = torch.tensor(values, dtype=F64)
    adv = group_advantages(r, group_size=g)
    assert torch.isfinite(adv).all()
    assert adv.view(-1, g).sum(1).abs().max() < 1e-6 * (1 + adv.abs().max())
    shifted = group_advantages(r + shift, group_size=g)
    torch.testing.assert_close(shifted, adv, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize(
    ("rewards", "kwargs", "names"),
    [
        (torch.tensor([1.0, float("nan")]), {"group_size": 2}, "rewards"),
        (torch.tensor([1.0, float("inf")]), {"group_size": 2}, "rewards"),
        (torch.tensor([1.0, 0.0, 1.0]), {"group_size": 2}, "group_size"),
        (torch.tensor([1.0, 0.0]), {"group_size": 0}, "group_size"),
        (torch.tensor([1.0, 0.0]), {"group_size": True}, "group_size"),
        (torch.tensor([]), {"group_size": 2}, "group_size"),
        (torch.tensor([[1.0, 0.0]]), {"group_size": 2}, "rewards"),
        (torch.tensor([1, 0]), {"group_size": 2}, "rewards"),
        ([1.0, 0.0], {"group_size": 2}, "rewards"),
        (torch.tensor([1.0, 0.0]), {"group_size": 2, "scale": "std"}, "scale"),
        (torch.tensor([1.0, 0.0]), {"group_size": 2, "eps": -1.0}, "eps"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(rewards, kwargs, names):
    with pytest.raises(ValueError, match=names):
        group_advantages(rewards, **kwargs)


# --------------------------------------------------------------------------- no signal (None)


def _masked(values):
    """(rewards [N], valid [N]) from a list where None is "no signal" (NaN in the tensor)."""
    r = torch.tensor([float("nan") if v is None else v for v in values], dtype=F64)
    return r, torch.tensor([v is not None for v in values])


def test_issue_example_none_members_do_not_inflate_the_others():
    # Issue 31: [1, None x 6, 0] gave the two real members +-1.87 (the Nones filled with the
    # mean shrink the std); without the Nones they are +-0.71.
    r, valid = _masked([1.0, *[None] * 6, 0.0])
    adv = group_advantages(r, group_size=8, valid=valid)
    alone = group_advantages(torch.tensor([1.0, 0.0], dtype=F64), group_size=2)
    torch.testing.assert_close(adv[[0, 7]], alone, rtol=0, atol=1e-12)
    assert round(adv[0].item(), 2) == 0.71 and torch.equal(adv[1:7], torch.zeros(6, dtype=F64))


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
@pytest.mark.parametrize("unbiased", [True, False])
def test_none_members_change_no_other_advantage(scale, unbiased):
    # Every group keeps 3 valid members, so the same batch without the Nones is a batch of
    # groups of 3: the valid members' advantages must be those, for every scale.
    rows = [[0.0, None, 1.0, 0.5, None], [None, 0.2, 0.2, None, 0.9],
            [1.0, 1.0, None, None, 1.0], [None, None, 0.3, 0.0, 1.0]]
    r, valid = _masked([v for g in rows for v in g])
    adv = group_advantages(r, group_size=5, scale=scale, unbiased=unbiased, valid=valid)
    kept = torch.tensor([v for g in rows for v in g if v is not None], dtype=F64)
    expected = group_advantages(kept, group_size=3, scale=scale, unbiased=unbiased)
    torch.testing.assert_close(adv[valid], expected, rtol=1e-12, atol=1e-12)
    assert torch.equal(adv[~valid], torch.zeros(int((~valid).sum()), dtype=F64))


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
def test_all_none_group_is_zero_and_leaves_the_other_groups_alone(scale):
    r, valid = _masked([None, None, None, 1.0, 0.0, 0.5])
    adv = group_advantages(r, group_size=3, scale=scale, valid=valid)
    assert torch.equal(adv[:3], torch.zeros(3, dtype=F64))
    alone = group_advantages(torch.tensor([1.0, 0.0, 0.5], dtype=F64), group_size=3, scale=scale)
    torch.testing.assert_close(adv[3:], alone, rtol=1e-12, atol=1e-12)
    none_r, none_valid = _masked([None] * 4)
    nothing = group_advantages(none_r, group_size=2, scale=scale, valid=none_valid)
    assert torch.equal(nothing, torch.zeros(4, dtype=F64))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(2, 6), st.integers(1, 4), st.data())
def test_property_a_group_with_nones_equals_it_without_them(g, groups, data):
    values = data.draw(st.lists(st.one_of(st.none(), st.integers(-20, 20).map(lambda k: k / 10)),
                                min_size=g * groups, max_size=g * groups))
    r, valid = _masked(values)
    adv = group_advantages(r, group_size=g, valid=valid)
    assert torch.isfinite(adv).all()
    for i in range(0, len(values), g):
        kept = [v for v in values[i:i + g] if v is not None]
        if kept:
            alone = group_advantages(torch.tensor(kept, dtype=F64), group_size=len(kept))
            torch.testing.assert_close(adv[i:i + g][valid[i:i + g]], alone, rtol=1e-9, atol=1e-9)


def test_all_valid_mask_is_the_unmasked_result_to_the_last_bit():
    r = torch.tensor(SEED_BALANCED + SEED_HARD, dtype=F64)
    for scale in SCALES:
        assert torch.equal(group_advantages(r, group_size=4, scale=scale,
                                            valid=torch.ones(16, dtype=torch.bool)),
                           group_advantages(r, group_size=4, scale=scale))


def test_nan_is_refused_only_where_valid():
    r, valid = _masked([1.0, None])
    group_advantages(r, group_size=2, valid=valid)  # NaN under a False cell is ignored
    with pytest.raises(ValueError, match="rewards"):
        group_advantages(r, group_size=2, valid=torch.ones(2, dtype=torch.bool))
    with pytest.raises(ValueError, match="valid"):
        group_advantages(r, group_size=2, valid=torch.ones(3, dtype=torch.bool))
