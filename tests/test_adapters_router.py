"""verifiers.adapters.compute_score: one verl compute_score that routes on data_source,
called as verl 0.9.1's reward managers call it (tests/verl_managers.py)."""

from __future__ import annotations

import pickle

import pytest
from verl_managers import MANAGERS, naive, scores

from verifiers.adapters import compute_score, register_source, to_verl
from verifiers.routing import SourceRouter
from verifiers.types import Verdict

# (data_source, right completion, wrong completion, ground truth, extra_info)
MIXED = [
    ("openai/gsm8k", "so #### 7", "#### 9", "7", {}),
    ("HuggingFaceH4/MATH-500", r"so \boxed{\frac{1}{2}}", r"\boxed{2}", r"\frac12", {}),
    ("lighteval/MATH", r"\boxed{x^2+1}", r"\boxed{x^2}", "1+x^2", {}),
    ("math500", r"\boxed{0.5}", r"\boxed{5}", r"\frac{1}{2}", {}),
    ("gsm8k", "#### 1,000", "#### 100", "1000", {}),
    ("countdown", "<answer>3*4+1</answer>", "<answer>3*4</answer>", "13",
     {"numbers": [3, 4, 1]}),
]


def _samples():
    out = []
    for i, (source, right, wrong, gold, extra) in enumerate(MIXED):
        for response in (right, wrong):
            out.append({"data_source": source, "response": response,
                        "reward_model": {"ground_truth": gold},
                        "extra_info": {"index": i, **extra}})
    return out


@pytest.mark.parametrize("manager", sorted(MANAGERS))
def test_every_manager_scores_a_mixed_batch_by_its_sources(manager):
    assert scores(manager, compute_score, _samples()) == [1.0, 0.0] * len(MIXED)


def test_every_source_gives_the_same_keys_so_verl_can_collect_them():
    _, extra = naive(compute_score, _samples())
    assert set(extra) == {"score", "no_signal", "errors"}
    assert all(len(v) == 2 * len(MIXED) for v in extra.values())


def test_an_unknown_source_raises_naming_it_and_the_known_ones():
    with pytest.raises(KeyError, match=r"unknown data_source 'my/source'.*openai/gsm8k"):
        compute_score("my/source", "#### 7", "7")


def test_a_registered_source_is_routed_and_an_existing_one_can_be_replaced():
    router = SourceRouter({"openai/gsm8k": lambda c, a, **_: 0.25}, adapt=to_verl)

    def exact(completion: str, answer: str, **info) -> Verdict:
        return Verdict(float(completion.strip() == answer), "exact")

    router.register(["my/source", "my/other"], exact)
    assert float(router("my/source", " ok ", "ok")) == 1.0
    assert float(router("MY/OTHER", "no", "ok")) == 0.0  # case-insensitive
    assert float(router("openai/gsm8k", "#### 7", "7")) == 0.25
    with pytest.raises(ValueError, match="data_source"):
        router.register("", exact)
    with pytest.raises(TypeError, match="reward function or a Rubric"):
        router.register("x", 3)


def upper(completion: str, answer: str, **info) -> float:
    return float(completion == answer.upper())


def test_register_source_extends_the_module_router():
    register_source("tests/upper", upper)
    assert float(compute_score("tests/upper", "AB", "ab")) == 1.0


def test_the_router_pickles_for_primes_process_pool():
    again = pickle.loads(pickle.dumps(compute_score))
    assert float(again("openai/gsm8k", "#### 7", "7")) == 1.0
