"""The preallocated-cache decoder (policy_opt.rollout.kv_decode) against the model's own forward
pass, on each architecture it claims: Llama (grouped-query attention), Mistral, Qwen2
(q/k/v biases) and Qwen3 (per-head q/k norms)."""

from __future__ import annotations

import pytest
import torch
from transformers import (
    GPT2Config,
    GPT2LMHeadModel,
    LlamaConfig,
    LlamaForCausalLM,
    MistralConfig,
    MistralForCausalLM,
    Qwen2Config,
    Qwen2ForCausalLM,
    Qwen3Config,
    Qwen3ForCausalLM,
)

from policy_opt.models import default_tokenizer
from policy_opt.rollout import engine as engine_mod
from policy_opt.rollout import kv_decode
from policy_opt.rollout.engine import TransformersEngine

SIZES = dict(vocab_size=260, hidden_size=48, intermediate_size=96, num_hidden_layers=2,
             num_attention_heads=6, num_key_value_heads=2, max_position_embeddings=256)


def _build(kind: str):
    torch.manual_seed(0)
    if kind == "llama":
        model = LlamaForCausalLM(LlamaConfig(**SIZES, initializer_range=0.3))
    elif kind == "mistral":
        model = MistralForCausalLM(MistralConfig(**SIZES, sliding_window=None,
                                                 initializer_range=0.3))
    elif kind == "qwen2":
        model = Qwen2ForCausalLM(Qwen2Config(**SIZES, initializer_range=0.3))
    else:
        model = Qwen3ForCausalLM(Qwen3Config(**SIZES, head_dim=8, initializer_range=0.3))
    if kind == "qwen2":  # random init leaves the q/k/v biases at zero; make them count
        with torch.no_grad():
            for layer in model.model.layers:
                for proj in (layer.self_attn.q_proj, layer.self_attn.k_proj,
                             layer.self_attn.v_proj):
                    proj.bias.normal_(0, 0.5)
    return model.eval()


@pytest.fixture(scope="module")
def tok():
    return default_tokenizer()


@pytest.fixture(scope="module")
def prompts(tok):
    texts = ["What is 3+4?", "hi", "A longer prompt, to make the batch ragged: 12+30?"]
    ids = [tok.encode(t, add_special_tokens=False) for t in texts]
    # Groups share prompts, in mixed order, as GRPO's repeated prompts and a shuffled batch do.
    return [ids[0], ids[1], ids[0], ids[2], ids[0], ids[1]]


def _full_forward_logprobs(model, prompt, completion, temperature):
    ids = torch.tensor([prompt + completion])
    with torch.no_grad():
        logits = model(ids).logits[0, len(prompt) - 1 : -1].float() / temperature
    return torch.log_softmax(logits, -1).gather(-1, torch.tensor(completion)[:, None])[:, 0]


@pytest.mark.parametrize("kind", ["llama", "mistral", "qwen2", "qwen3"])
def test_sampled_logprobs_equal_a_full_forward_pass(kind, tok, prompts):
    model = _build(kind)
    assert kv_decode.supports(model, 1000)
    gens = TransformersEngine(model, tok).generate(prompts, max_new_tokens=12, temperature=0.8,
                                                   seed=3)
    assert all(len(g.token_ids) > 1 for g in gens)
    for p, g in zip(prompts, gens):
        want = _full_forward_logprobs(model, p, g.token_ids, 0.8)
        torch.testing.assert_close(torch.tensor(g.logprobs), want, atol=2e-5, rtol=2e-5)


@pytest.mark.parametrize("kind", ["llama", "qwen3"])
def test_greedy_and_seeded_sampling_equal_the_forward_path(kind, tok, prompts):
    model = _build(kind)
    fast = TransformersEngine(model, tok)
    slow = TransformersEngine(model, tok, fast_decode=False)
    for temperature in (0.0, 1.0):
        a = fast.generate(prompts, max_new_tokens=10, temperature=temperature, seed=5)
        b = slow.generate(prompts, max_new_tokens=10, temperature=temperature, seed=5)
        assert [g.token_ids for g in a] == [g.token_ids for g in b]
        for x, y in zip(a, b):
            torch.testing.assert_close(torch.tensor(x.logprobs), torch.tensor(y.logprobs),
                                       atol=2e-5, rtol=2e-5)


def test_buffer_growth_and_dropped_rows_keep_the_logprobs(tok, prompts, monkeypatch):
    # A one-column first allocation forces every doubling; a fake EOS makes rows finish at
    # different steps so finished rows are dropped from the buffers mid-way.
    model = _build("llama")
    monkeypatch.setattr(engine_mod, "FIRST_CAPACITY", 1)
    free = TransformersEngine(model, tok).generate(prompts, max_new_tokens=9, temperature=0)
    model.generation_config.eos_token_id = [tok.eos_token_id, free[0].token_ids[1]]
    try:
        gens = TransformersEngine(model, tok).generate(prompts, max_new_tokens=9, temperature=0.9,
                                                       seed=11)
    finally:
        model.generation_config.eos_token_id = tok.eos_token_id
    lengths = {len(g.token_ids) for g in gens}
    assert len(lengths) > 1, "rows should finish at different steps"
    for p, g in zip(prompts, gens):
        torch.testing.assert_close(torch.tensor(g.logprobs),
                                   _full_forward_logprobs(model, p, g.token_ids, 0.9),
                                   atol=2e-5, rtol=2e-5)


def test_unsupported_models_fall_back_to_the_forward_path(tok, prompts):
    gpt2 = GPT2LMHeadModel(GPT2Config(vocab_size=260, n_embd=32, n_layer=2, n_head=2)).eval()
    assert not kv_decode.supports(gpt2, 10)
    mistral = MistralForCausalLM(MistralConfig(**SIZES, sliding_window=16)).eval()
    assert kv_decode.supports(mistral, 16) and not kv_decode.supports(mistral, 17)
    gens = TransformersEngine(gpt2, tok).generate(prompts, max_new_tokens=5, temperature=0.7,
                                                  seed=0)
    for p, g in zip(prompts, gens):
        torch.testing.assert_close(torch.tensor(g.logprobs),
                                   _full_forward_logprobs(gpt2, p, g.token_ids, 0.7),
                                   atol=2e-5, rtol=2e-5)
