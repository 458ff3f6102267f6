"""token_logprobs against the naive log_softmax(...).gather(...), values and gradients."""

from __future__ import annotations

import math

import pytest
import torch

from policy_opt.algorithm.logprobs import token_logprobs


def naive(logits, tokens, temperature=1.0):
    cdtype = torch.float64 if logits.dtype == torch.float64 else torch.float32
    lp = (logits.to(cdtype) / temperature).log_softmax(-1)
    return lp.gather(-1, tokens.unsqueeze(-1)).squeeze(-1)


def test_hand_worked_example():
    logits = torch.tensor([[[0.0, 0.0], [2.0, 0.0]]])
    out = token_logprobs(logits, torch.tensor([[1, 0]]))
    expected = torch.tensor([[-math.log(2), -math.log(1 + math.exp(-2))]])
    torch.testing.assert_close(out, expected)


@pytest.mark.parametrize(
    ("dtype", "atol"), [(torch.float32, 2e-6), (torch.float64, 1e-12), (torch.bfloat16, 2e-6)]
)
@pytest.mark.parametrize("chunk_size", [1, 3, 1000])
def test_equals_naive_value_and_gradient(dtype, atol, chunk_size):
    g = torch.Generator().manual_seed(0)
    base = (torch.randn(3, 7, 257, generator=g, dtype=torch.float64) * 4).to(dtype)
    tokens = torch.randint(0, 257, (3, 7), generator=g)
    ours_in = base.clone().requires_grad_()
    ref_in = base.clone().requires_grad_()
    ours = token_logprobs(ours_in, tokens, chunk_size=chunk_size)
    ref = naive(ref_in, tokens)
    # bf16 (and fp32) logits give fp32 log-probs; fp64 stays fp64
    assert ours.dtype == (torch.float64 if dtype == torch.float64 else torch.float32)
    torch.testing.assert_close(ours, ref, rtol=0, atol=atol)
    w = torch.randn(3, 7, generator=g, dtype=ours.dtype)
    (ours * w).sum().backward()
    (ref * w).sum().backward()
    assert ours_in.grad.dtype == dtype
    torch.testing.assert_close(ours_in.grad.double(), ref_in.grad.double(), rtol=0,
                               atol=max(atol, 1e-2 if dtype == torch.bfloat16 else atol))


def test_sliced_model_logits_without_copy_and_temperature():
    # model logits [N, L+1, V] shifted by one: rows are not evenly strided; no flattening copy
    g = torch.Generator().manual_seed(1)
    full = torch.randn(4, 6, 50, generator=g, dtype=torch.float64, requires_grad=True)
    tokens = torch.randint(0, 50, (4, 5), generator=g)
    ours = token_logprobs(full[:, :-1], tokens, chunk_size=2, temperature=0.7)
    ref = naive(full[:, :-1], tokens, temperature=0.7)
    torch.testing.assert_close(ours, ref, rtol=0, atol=1e-12)
    (g_ours,) = torch.autograd.grad(ours.sum(), full)
    (g_ref,) = torch.autograd.grad(ref.sum(), full)
    torch.testing.assert_close(g_ours, g_ref, rtol=0, atol=1e-12)
    assert torch.all(g_ours[:, -1] == 0)


def test_gradcheck_two_dimensional_input():
    x = torch.randn(5, 7, dtype=torch.float64, requires_grad=True)
    tokens = torch.tensor([0, 6, 3, 3, 1])
    assert torch.autograd.gradcheck(
        lambda z: token_logprobs(z, tokens, chunk_size=2, temperature=1.3), (x,)
    )


def test_probabilities_of_all_tokens_sum_to_one():
    logits = torch.randn(2, 11, dtype=torch.float64)
    every = torch.stack([token_logprobs(logits, torch.full((2,), v)) for v in range(11)], -1)
    torch.testing.assert_close(every.exp().sum(-1), torch.ones(2, dtype=torch.float64))


@pytest.mark.parametrize(
    ("logits", "tokens", "kwargs", "names"),
    [
        (torch.zeros(2, 3, 5), torch.zeros(2, 4, dtype=torch.long), {}, "logits"),
        (torch.zeros(2, 3, 5, dtype=torch.long), torch.zeros(2, 3, dtype=torch.long), {},
         "logits"),
        (torch.zeros(2, 3, 5), torch.zeros(2, 3), {}, "tokens"),
        (torch.zeros(2, 3, 5), torch.full((2, 3), 5), {}, "tokens"),
        (torch.zeros(2, 3, 5), torch.full((2, 3), -1), {}, "tokens"),
        (torch.zeros(2, 3, 5), torch.zeros(2, 3, dtype=torch.long), {"chunk_size": 0},
         "chunk_size"),
        (torch.zeros(2, 3, 5), torch.zeros(2, 3, dtype=torch.long), {"temperature": 0.0},
         "temperature"),
        ("x", torch.zeros(2, 3, dtype=torch.long), {}, "logits"),
    ],
)
def test_bad_input_raises_value_error_naming_the_argument(logits, tokens, kwargs, names):
    with pytest.raises(ValueError, match=names):
        token_logprobs(logits, tokens, **kwargs)
