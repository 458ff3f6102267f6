"""verifiers.length: DAPO's soft overlong penalty and the truncation penalty as rubric terms,
checked against TRL's ``get_soft_overlong_punishment`` (called) and against verl's DAPO
``overlong_buffer`` (its published formula, written out below, since verl cannot be imported
here), the way the loss tests check our losses against TRL's."""

from __future__ import annotations

import numpy as np
import pytest

from verifiers.adapters import to_trl
from verifiers.gsm8k import gsm8k_check
from verifiers.length import SoftOverlong, Truncation, overlong_penalty
from verifiers.rubric import RewardFunc, Rubric

LENGTHS = [0, 1, 50, 79, 80, 81, 90, 99, 100, 101, 1000]


@pytest.mark.parametrize("max_length, buffer", [(100, 20), (100, 0), (100, 100), (7, 3)])
def test_overlong_penalty_matches_trl(max_length, buffer):
    rewards = pytest.importorskip("trl.rewards")
    trl_penalty = rewards.get_soft_overlong_punishment(max_length, buffer)
    ids = [[1] * n for n in LENGTHS]
    assert [overlong_penalty(n, max_length, buffer) for n in LENGTHS] == \
        pytest.approx(trl_penalty(completion_ids=ids))


def verl_dapo_overlong_reward(length, max_resp_len, buffer_len, penalty_factor):
    """verl's DAPO reward manager with ``overlong_buffer.enable``: expected length
    ``max_resp_len - len``, penalty ``min(-exceed / len * penalty_factor, 0)`` added to the
    score (responses are never longer than ``max_resp_len`` there)."""
    exceed = length - (max_resp_len - buffer_len)
    return min(-exceed / buffer_len * penalty_factor, 0.0)


@pytest.mark.parametrize("factor", [1.0, 0.5, 2.0])
def test_overlong_penalty_matches_verl_dapo_up_to_the_limit(factor):
    for n in range(0, 101):
        assert factor * overlong_penalty(n, 100, 16) == \
            pytest.approx(verl_dapo_overlong_reward(n, 100, 16, factor))


def test_as_a_weighted_term_grpo_advantages_equal_dapos_summed_reward():
    # DAPO adds factor * penalty to the accuracy; the rubric's weighted mean with weight
    # `factor` on 1 + penalty is an increasing affine map of that sum, so group-normalised
    # advantages ((r - mean) / std) are the same.
    factor = 0.7
    rubric = Rubric([RewardFunc("accuracy", gsm8k_check),
                     RewardFunc("overlong", SoftOverlong(100, 20), weight=factor,
                                in_process=True)])
    group = [("#### 4", 30), ("#### 4", 95), ("#### 5", 85), ("#### 4", 100), ("#### 5", 10)]
    ours = np.array([rubric.score(c, "4", completion_length=n).total for c, n in group])
    dapo = np.array([float(c == "#### 4") + verl_dapo_overlong_reward(n, 100, 20, factor)
                     for c, n in group])

    def adv(r):
        return (r - r.mean()) / r.std()

    np.testing.assert_allclose(adv(ours), adv(dapo), atol=1e-12)
    np.testing.assert_allclose(ours - ours.mean(), (dapo - dapo.mean()) / (1 + factor),
                               atol=1e-12)


def test_truncation_as_a_gate_is_hard_and_as_a_term_is_weighted():
    gated = Rubric([RewardFunc("not_truncated", Truncation(64), in_process=True),
                    RewardFunc("accuracy", gsm8k_check)], gate="not_truncated")
    assert gated.score("#### 4", "4", completion_length=64).total == 0.0
    assert gated.score("#### 4", "4", completion_length=63).total == 1.0
    assert gated.score("#### 4", "4", completion_length=10, truncated=True).total == 0.0
    weighted = Rubric([RewardFunc("accuracy", gsm8k_check, weight=3.0),
                       RewardFunc("not_truncated", Truncation(64), in_process=True)])
    assert weighted.score("#### 4", "4", completion_length=80).total == pytest.approx(0.75)


def test_a_missing_length_is_a_typed_error_not_a_full_reward():
    rubric = Rubric([RewardFunc("overlong", SoftOverlong(100, 20)),
                     RewardFunc("cut", Truncation(100))])
    s = rubric.score("x", None)
    assert s.total is None and {e.name for e in s.errors} == {"overlong", "cut"}
    assert "completion_length" in s.errors[0].message
    s = rubric.score("x", None, completion_length=100, truncated="yes")
    assert s.errors[0].name == "cut" and s.errors[0].kind == "exception"


@pytest.mark.parametrize("args, error", [((100, 101), ValueError), ((0, 0), ValueError),
                                         ((100, -1), ValueError), ((100.0, 20), TypeError),
                                         ((True, 0), TypeError)])
def test_bad_settings_fail_at_construction(args, error):
    with pytest.raises(error):
        SoftOverlong(*args)


def test_to_trl_passes_the_token_count_of_each_completion():
    reward = to_trl(Rubric([RewardFunc("overlong", SoftOverlong(100, 20), in_process=True)]))
    ids = [[1] * 90, [1] * 10, [1] * 120]
    assert reward(["q"] * 3, ["a", "b", "c"], completion_ids=ids) == [0.5, 1.0, 0.0]
