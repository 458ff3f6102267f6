"""The static-cache decode path (policy_opt.rollout.static_decode), eagerly on the CPU against
``model.generate`` and a full forward pass, and as CUDA graphs on a GPU (marked ``gpu``)."""

from __future__ import annotations

import pytest
import torch

from policy_opt.rollout import engine as engine_mod
from policy_opt.rollout.engine import TransformersEngine
from tests.test_engine import _reference_greedy
from tests.test_kv_decode import _build, _full_forward_logprobs

needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
DEVICES = [pytest.param("cpu", id="cpu"),
           pytest.param("cuda", id="cuda", marks=[pytest.mark.gpu, needs_cuda])]


@pytest.fixture(scope="module")
def tok():
    from policy_opt.models import default_tokenizer

    return default_tokenizer()


@pytest.fixture(scope="module")
def prompts(tok):
    texts = ["What is 3+4?", "hi", "A longer prompt, to make the batch ragged: 12+30?"]
    ids = [tok.encode(t, add_special_tokens=False) for t in texts]
    return [ids[0], ids[1], ids[0], ids[2], ids[0], ids[1]]


def _engine(model, tok, device: str) -> TransformersEngine:
    return TransformersEngine(model, tok, static_cache=True, cuda_graphs=device == "cuda")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kind", ["llama", "qwen2", "qwen3"])
def test_greedy_tokens_equal_model_generate(kind, device, tok, prompts):
    model = _build(kind).to(device)
    eos = {tok.eos_token_id}
    gens = _engine(model, tok, device).generate(prompts, max_new_tokens=20, temperature=0)
    want = _reference_greedy(model, tok, prompts, 20, eos)
    assert [g.token_ids for g in gens] == want
    assert len({len(g.token_ids) for g in gens}) > 1 or all(len(w) == 20 for w in want)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("kind", ["llama", "qwen3"])
def test_sampled_logprobs_equal_a_full_forward_pass(kind, device, tok, prompts):
    model = _build(kind).to(device)
    gens = _engine(model, tok, device).generate(prompts, max_new_tokens=12, temperature=0.8,
                                                seed=3)
    assert all(len(g.token_ids) > 1 for g in gens)
    model = model.cpu()
    for p, g in zip(prompts, gens):
        want = _full_forward_logprobs(model, p, g.token_ids, 0.8)
        torch.testing.assert_close(torch.tensor(g.logprobs), want, atol=1e-4, rtol=1e-4)


def test_rows_end_at_eos_stop_strings_and_their_room_between_reads(tok, prompts, monkeypatch):
    """The host reads tokens every few steps; what it returns must be what the per-token loop
    returns: EOS (a fake one that every row meets at a different step), a stop string, and
    a context that leaves rows different room."""
    model = _build("llama")
    monkeypatch.setattr(engine_mod, "STATIC_READ_EVERY", 3)
    free = TransformersEngine(model, tok, static_cache=False).generate(
        prompts, max_new_tokens=11, temperature=0)
    eos = free[0].token_ids[4]
    a, b = (TransformersEngine(model, tok, static_cache=flag) for flag in (True, False))
    a.eos_ids = b.eos_ids = {eos}
    for kwargs in ({}, {"stop": [tok.decode(free[3].token_ids[2:4])]}):
        got = a.generate(prompts, max_new_tokens=11, temperature=0, **kwargs)
        want = b.generate(prompts, max_new_tokens=11, temperature=0, **kwargs)
        assert [(g.token_ids, g.finish_reason) for g in got] == \
            [(w.token_ids, w.finish_reason) for w in want]
        assert {g.finish_reason for g in got} == {"stop", "length"}
        for x, y in zip(got, want):
            torch.testing.assert_close(torch.tensor(x.logprobs), torch.tensor(y.logprobs),
                                       atol=2e-5, rtol=2e-5)
    # A context that leaves the long prompt less room than max_new_tokens.
    a.eos_ids = b.eos_ids = set()
    limit = len(prompts[3]) + 7
    model.config.max_position_embeddings = limit
    got = a.generate(prompts, max_new_tokens=20, temperature=0)
    want = b.generate(prompts, max_new_tokens=20, temperature=0)
    assert [g.token_ids for g in got] == [w.token_ids for w in want]
    assert len(got[3].token_ids) == 7 and len(got[1].token_ids) == 20


@pytest.mark.gpu
@needs_cuda
def test_cuda_graph_replay_follows_weight_updates_and_matches_eager_steps(tok, prompts):
    """The graph records the weights' addresses: an in-place update (what AdamW does) must
    show in the next generation, and graph replay must decode what eager steps decode."""
    model = _build("llama").cuda()
    graphs = TransformersEngine(model, tok, static_cache=True, cuda_graphs=True)
    eager = TransformersEngine(model, tok, static_cache=True, cuda_graphs=False)
    before = graphs.generate(prompts, max_new_tokens=16, temperature=0)
    assert [g.token_ids for g in before] == \
        [g.token_ids for g in eager.generate(prompts, max_new_tokens=16, temperature=0)]
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(-1.0)
    after = graphs.generate(prompts, max_new_tokens=16, temperature=0)
    assert [g.token_ids for g in after] == \
        [g.token_ids for g in eager.generate(prompts, max_new_tokens=16, temperature=0)]
    assert [g.token_ids for g in after] != [g.token_ids for g in before]


@pytest.mark.gpu
@needs_cuda
def test_bf16_autocast_decoding_runs_under_graphs(tok, prompts):
    model = _build("qwen2").cuda()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        gens = TransformersEngine(model, tok).generate(prompts, max_new_tokens=12,
                                                      temperature=1.0, seed=0)
    assert all(len(g.token_ids) >= 1 for g in gens)
