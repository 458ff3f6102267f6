"""Rollout engines: TransformersEngine against model.generate, seeding, stop handling, and
the VLLMEngine interface (GPU parts marked `gpu` and skipped without CUDA)."""

from __future__ import annotations

import sys

import pytest
import torch
from transformers import LlamaForCausalLM

from policy_opt.models import default_config, default_tokenizer
from policy_opt.rollout.engine import Engine, Generation, TransformersEngine
from policy_opt.rollout.vllm_engine import VLLMEngine

PROMPTS = ["What is 3+4?", "hi", "A longer prompt, to make the batch ragged: 12+30?"]


@pytest.fixture(scope="module")
def tok():
    return default_tokenizer()


@pytest.fixture(scope="module")
def model():
    torch.manual_seed(0)
    cfg = default_config(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64
    )
    # A large init makes the logits peaked, so greedy choices are not near-ties that
    # float noise between batched kernels could flip.
    cfg.initializer_range = 0.3
    return LlamaForCausalLM(cfg).eval()


@pytest.fixture(scope="module")
def prompts(tok):
    return [tok.encode(p, add_special_tokens=False) for p in PROMPTS]


def _reference_greedy(model, tok, prompts, max_new_tokens, eos_ids):
    """model.generate on the left-padded batch, cut after the first EOS."""
    enc = tok.pad({"input_ids": prompts}, return_tensors="pt")
    out = model.generate(
        **enc,
        max_new_tokens=max_new_tokens,
        do_sample=False,
        pad_token_id=tok.pad_token_id,
        eos_token_id=list(eos_ids),
    )[:, enc["input_ids"].shape[1] :].tolist()
    cut = []
    for row in out:
        ends = [i for i, t in enumerate(row) if t in eos_ids]
        cut.append(row[: ends[0] + 1] if ends else row)
    return cut


def test_greedy_matches_model_generate(model, tok, prompts):
    gens = TransformersEngine(model, tok).generate(prompts, max_new_tokens=20, temperature=0)
    ref = _reference_greedy(model, tok, prompts, 20, {tok.eos_token_id})
    assert [g.token_ids for g in gens] == ref
    for g in gens:
        assert g.finish_reason == ("stop" if g.token_ids[-1] == tok.eos_token_id else "length")


def test_finished_rows_are_not_extended(model, tok, prompts):
    # Declare as EOS the third token greedy emits for row 0: row 0 must stop there, the
    # others run on, exactly as model.generate does with the same EOS list.
    free = TransformersEngine(model, tok).generate(prompts, max_new_tokens=12, temperature=0)
    fake_eos = free[0].token_ids[2]
    eos_ids = {tok.eos_token_id, fake_eos}
    model.generation_config.eos_token_id = sorted(eos_ids)
    try:
        gens = TransformersEngine(model, tok).generate(prompts, max_new_tokens=12, temperature=0)
    finally:
        model.generation_config.eos_token_id = tok.eos_token_id
    assert gens[0].finish_reason == "stop"
    assert gens[0].token_ids[-1] == fake_eos and len(gens[0].token_ids) <= 3
    assert [g.token_ids for g in gens] == _reference_greedy(model, tok, prompts, 12, eos_ids)


def test_logprobs_match_a_full_forward_pass(model, tok, prompts):
    gens = TransformersEngine(model, tok).generate(
        prompts, max_new_tokens=8, temperature=0.7, seed=1
    )
    for p, g in zip(prompts, gens):
        assert len(g.logprobs) == len(g.token_ids)
        ids = torch.tensor([p + g.token_ids])
        with torch.no_grad():
            logits = model(ids).logits[0, len(p) - 1 : -1] / 0.7
        want = torch.log_softmax(logits, -1).gather(-1, torch.tensor(g.token_ids)[:, None])
        torch.testing.assert_close(torch.tensor(g.logprobs), want[:, 0], atol=1e-4, rtol=1e-4)


def test_sampling_is_reproducible_by_seed(model, tok, prompts):
    engine = TransformersEngine(model, tok)
    a = engine.generate(prompts * 4, max_new_tokens=16, seed=7)
    b = engine.generate(prompts * 4, max_new_tokens=16, seed=7)
    c = engine.generate(prompts * 4, max_new_tokens=16, seed=8)
    assert a == b
    assert [g.token_ids for g in a] != [g.token_ids for g in c]


def test_tiny_top_p_is_greedy(model, tok, prompts):
    engine = TransformersEngine(model, tok)
    greedy = engine.generate(prompts, max_new_tokens=10, temperature=0)
    nucleus = engine.generate(prompts, max_new_tokens=10, temperature=1.0, top_p=1e-6, seed=3)
    assert [g.token_ids for g in nucleus] == [g.token_ids for g in greedy]


def test_max_batch_size_chunks_give_the_same_result(model, tok, prompts):
    whole = TransformersEngine(model, tok).generate(prompts, max_new_tokens=10, temperature=0)
    chunked = TransformersEngine(model, tok, max_batch_size=1).generate(
        prompts, max_new_tokens=10, temperature=0
    )
    assert [g.token_ids for g in chunked] == [g.token_ids for g in whole]


def test_stop_string_ends_the_row(model, tok, prompts):
    engine = TransformersEngine(model, tok)
    free = engine.generate(prompts, max_new_tokens=16, temperature=0)
    # A stop string made of tokens 3..4 of row 0's free completion (bytes, so decodable).
    target = free[0].token_ids[3:5]
    stop = tok.decode(target)
    assert stop
    gens = engine.generate(prompts, max_new_tokens=16, temperature=0, stop=[stop])
    text = tok.decode(gens[0].token_ids)
    assert gens[0].finish_reason == "stop"
    assert text.endswith(stop) and stop not in text[:-1]
    assert gens[0].token_ids == free[0].token_ids[: len(gens[0].token_ids)]


def test_length_finish_and_row_lengths(model, tok, prompts):
    gens = TransformersEngine(model, tok).generate(prompts, max_new_tokens=3, temperature=0)
    for g in gens:
        assert 1 <= len(g.token_ids) <= 3
        assert g.finish_reason == "stop" or len(g.token_ids) == 3


def test_keeps_the_model_mode(model, tok, prompts):
    model.train()
    try:
        TransformersEngine(model, tok).generate(prompts[:1], max_new_tokens=2, seed=0)
        assert model.training
    finally:
        model.eval()


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"prompts": [[]]}, "prompts"),
        ({"prompts": [["a"]]}, "prompts"),
        ({"prompts": "abc"}, "prompts"),
        ({"max_new_tokens": 0}, "max_new_tokens"),
        ({"temperature": -1.0}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"top_p": 0.0}, "top_p"),
        ({"stop": "####"}, "stop"),
        ({"stop": [""]}, "stop"),
    ],
)
def test_bad_arguments_name_the_argument(model, tok, prompts, kwargs, name):
    call = {"prompts": prompts, "max_new_tokens": 4, **kwargs}
    with pytest.raises((ValueError, TypeError), match=name):
        TransformersEngine(model, tok).generate(call.pop("prompts"), **call)


def test_empty_batch_and_protocol(model, tok):
    engine = TransformersEngine(model, tok)
    assert engine.generate([], max_new_tokens=4) == []
    assert isinstance(engine, Engine)
    engine.sync_weights(model)  # in-process: shares the trainer's weights
    assert engine.model is model
    assert Generation([1], None, "length").logprobs is None


def test_vllm_missing_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "vllm", None)  # makes `import vllm` raise ImportError
    with pytest.raises(ImportError, match="pip install"):
        VLLMEngine("some/model")


def test_vllm_rejects_bad_arguments_before_importing(monkeypatch):
    monkeypatch.setitem(sys.modules, "vllm", None)
    with pytest.raises(TypeError, match="model"):
        VLLMEngine(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="gpu_memory_utilization"):
        VLLMEngine("some/model", gpu_memory_utilization=1.5)


def test_vllm_engine_satisfies_the_protocol():
    for method in ("generate", "sync_weights"):
        assert callable(getattr(VLLMEngine, method))


def _vllm_ready() -> bool:
    if not torch.cuda.is_available():
        return False
    try:
        import vllm  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.gpu
@pytest.mark.skipif(not _vllm_ready(), reason="needs a CUDA GPU and vLLM")
def test_vllm_generate_and_sync_weights(tmp_path, tok):
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    cfg = Qwen2Config(
        vocab_size=len(tok),
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        intermediate_size=128,
        max_position_embeddings=256,
        tie_word_embeddings=True,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
        initializer_range=0.3,
    )
    policy = Qwen2ForCausalLM(cfg)
    policy.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    engine = VLLMEngine(
        str(tmp_path),
        gpu_memory_utilization=0.2,
        dtype="float32",
        enforce_eager=True,
        max_model_len=256,
    )
    prompts = [tok.encode(p, add_special_tokens=False) for p in PROMPTS]
    policy = policy.cuda().eval()
    hf = TransformersEngine(policy, tok)
    before = engine.generate(prompts, max_new_tokens=8, temperature=0)
    assert [g.token_ids for g in before] == [
        g.token_ids for g in hf.generate(prompts, max_new_tokens=8, temperature=0)
    ]
    assert all(g.logprobs is not None and len(g.logprobs) == len(g.token_ids) for g in before)
    with torch.no_grad():  # a different policy: the engine must follow it after sync
        for p in policy.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    engine.sync_weights(policy)
    after = engine.generate(prompts, max_new_tokens=8, temperature=0)
    want = hf.generate(prompts, max_new_tokens=8, temperature=0)
    assert [g.token_ids for g in after] == [g.token_ids for g in want]
    assert [g.token_ids for g in after] != [g.token_ids for g in before]


def test_repeated_prompts_are_prefilled_once_and_decode_like_generate(model, tok, prompts):
    # GRPO groups repeat each prompt G times; the engine prefills each distinct one once.
    grouped = [prompts[1], prompts[0], prompts[1], prompts[0], prompts[0]]
    calls = []
    hook = model.register_forward_pre_hook(
        lambda mod, args, kwargs: calls.append(kwargs["input_ids"].shape), with_kwargs=True)
    try:
        gens = TransformersEngine(model, tok).generate(grouped, max_new_tokens=10, temperature=0)
    finally:
        hook.remove()
    assert calls[0][0] == 2  # the prefill saw 2 distinct prompts, not 5
    assert [g.token_ids for g in gens] == _reference_greedy(model, tok, grouped, 10,
                                                             {tok.eos_token_id})


def test_vllm_engine_checks_its_arguments_before_needing_vllm():
    with pytest.raises(ValueError, match="tensor_parallel_size"):
        VLLMEngine("some/model", tensor_parallel_size=0)


@pytest.mark.gpu
@pytest.mark.skipif(not _vllm_ready(), reason="needs a CUDA GPU and vLLM")
def test_trainer_with_vllm_sleep_mode_runs_two_steps(tmp_path, tok):
    """The main job on the GPU path: colocated vLLM, weights synced after each step, the
    engine's memory released during optimisation."""
    import json

    from transformers import Qwen2Config, Qwen2ForCausalLM

    from policy_opt.train import main

    torch.manual_seed(0)
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, intermediate_size=128,
                      max_position_embeddings=512, tie_word_embeddings=True,
                      eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)
    Qwen2ForCausalLM(cfg).save_pretrained(tmp_path / "m")
    tok.save_pretrained(tmp_path / "m")
    out = tmp_path / "run"
    assert main(["--model", str(tmp_path / "m"), "--env", "arithmetic", "--engine", "vllm",
                 "--vllm-sleep", "--vllm-gpu-memory", "0.2", "--max-steps", "2",
                 "--prompts-per-step", "2", "--group-size", "4", "--eval-prompts", "4",
                 "--out", str(out)]) == 0
    steps = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in steps if r["kind"] == "train"] == [1, 2]


def test_vllm_gives_each_copy_of_a_prompt_its_own_seed(monkeypatch):
    """vLLM seeds each request's generator with the request's seed: a GRPO group's copies of
    one prompt must not share it, or every copy samples the same completion."""
    import types

    monkeypatch.setitem(sys.modules, "vllm.inputs", None)  # the dict-prompt path

    class Params:
        def __init__(self, **kw):
            self.__dict__.update(kw)

    seen = {}

    class LLM:
        def generate(self, inputs, params, use_tqdm):
            seen["inputs"], seen["params"] = inputs, params
            done = types.SimpleNamespace(token_ids=[7], logprobs=None, finish_reason="stop")
            return [types.SimpleNamespace(outputs=[done]) for _ in inputs]

    engine = VLLMEngine.__new__(VLLMEngine)  # no GPU here: skip __init__'s vllm.LLM
    engine._vllm = types.SimpleNamespace(SamplingParams=Params)
    engine.llm, engine._asleep, engine.sleep_between_phases = LLM(), False, False
    gens = engine.generate([[1, 2]] * 3 + [[3]], max_new_tokens=4, seed=10)
    assert [p.seed for p in seen["params"]] == [10, 11, 12, 13]
    assert [i["prompt_token_ids"] for i in seen["inputs"]] == [[1, 2]] * 3 + [[3]]
    assert [g.token_ids for g in gens] == [[7]] * 4
    engine.generate([[1, 2]] * 2, max_new_tokens=4, seed=None)
    assert [p.seed for p in seen["params"]] == [None, None]


def _short_context_models(tok):
    """A Llama (rotary: past the context it would silently extrapolate) and a GPT-2 (learned
    positions: past the context it fails with an index error), both with 16 positions."""
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    llama = default_config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=16)
    gpt2 = GPT2Config(vocab_size=len(tok), n_positions=16, n_embd=32, n_layer=2, n_head=2)
    return [LlamaForCausalLM(llama).eval(), GPT2LMHeadModel(gpt2).eval()]


@pytest.mark.parametrize("which", [0, 1], ids=["llama", "gpt2"])
def test_rows_end_at_the_models_context(tok, which):
    from policy_opt.rollout.engine import ContextOverflow

    model = _short_context_models(tok)[which]
    engine = TransformersEngine(model, tok)
    engine.eos_ids = set()  # a sampled EOS would end a row early and hide the cap
    prompts = [[65] * 10, [66] * 14, [67] * 3]
    gens = engine.generate(prompts, max_new_tokens=8, temperature=1.0, seed=0)
    assert [len(g.token_ids) for g in gens] == [6, 2, 8]
    assert [g.finish_reason for g in gens] == ["length"] * 3
    # The capped rows' log-probs are still those of a full forward pass.
    for p, g in zip(prompts, gens):
        ids = torch.tensor([p + g.token_ids])
        with torch.no_grad():
            logp = torch.log_softmax(model(ids).logits[0, len(p) - 1:-1].float(), dim=-1)
        expect = logp.gather(-1, torch.tensor(g.token_ids)[:, None]).squeeze(-1)
        torch.testing.assert_close(torch.tensor(g.logprobs), expect, rtol=0, atol=1e-5)
    with pytest.raises(ContextOverflow, match=r"prompts\[1\] has 16 tokens.*context is 16"):
        engine.generate([[65] * 3, [65] * 16], max_new_tokens=2)
