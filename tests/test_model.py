"""Loading policies: the default model (built once into a cache), local paths, hub ids."""

from __future__ import annotations

import pytest
import torch
from test_pretrain import TINY_MODEL, _TinyAddition, tiny_recipe
from transformers import AutoModelForCausalLM, LlamaForCausalLM

from policy_opt.models import default as model_mod
from policy_opt.models import default_config, default_model_path, default_tokenizer, load_policy
from policy_opt.models import warm_start as pretrain


def test_default_config_is_the_small_llama():
    cfg = default_config()
    assert cfg.model_type == "llama" and cfg.tie_word_embeddings
    assert cfg.vocab_size == len(default_tokenizer())
    n = sum(p.numel() for p in LlamaForCausalLM(cfg).parameters())
    assert 2_000_000 < n < 3_000_000


@pytest.fixture
def tiny_dir(tmp_path):
    tok = default_tokenizer()
    torch.manual_seed(0)
    m = LlamaForCausalLM(default_config(**TINY_MODEL))
    m.save_pretrained(tmp_path / "tiny")
    tok.save_pretrained(tmp_path / "tiny")
    return tmp_path / "tiny", m


def test_load_local_path_and_dtype(tiny_dir):
    path, original = tiny_dir
    model, tok = load_policy(str(path))
    assert tok.padding_side == "left" and tok.pad_token_id is not None
    assert not model.training
    for a, b in zip(model.parameters(), original.parameters()):
        assert torch.equal(a, b)
    half, _ = load_policy(path, dtype="bfloat16")
    assert next(half.parameters()).dtype == torch.bfloat16


def test_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_policy(str(tmp_path / "nope"))


def test_bad_dtype_names_the_argument(tiny_dir):
    with pytest.raises(ValueError, match="dtype"):
        load_policy(tiny_dir[0], dtype="float8")


def test_unreachable_hub_id_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    import huggingface_hub.constants as hub_constants

    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(OSError, match="rlvr-test/no-such-model"):
        load_policy("rlvr-test/no-such-model")


@pytest.fixture
def tiny_default(monkeypatch, tmp_path):
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(pretrain, "_get_task", lambda name, kwargs: _TinyAddition())
    monkeypatch.setattr(pretrain, "Recipe", lambda **kw: tiny_recipe(**kw))
    return tmp_path / "cache"


def test_default_is_built_once_then_cached(tiny_default, monkeypatch, capsys):
    model, tok = load_policy("default")
    assert "building the default model" in capsys.readouterr().out
    [built] = list(tiny_default.iterdir())
    assert built.name == f"default-{pretrain.recipe_hash(tiny_recipe())}"

    def no_rebuild(*a, **k):
        raise AssertionError("rebuilt a cached model")

    monkeypatch.setattr(pretrain, "build", no_rebuild)
    again, _ = load_policy("default")
    assert "building" not in capsys.readouterr().out
    for a, b in zip(model.parameters(), again.parameters()):
        assert torch.equal(a, b)
    # Plain transformers loads it too.
    assert isinstance(AutoModelForCausalLM.from_pretrained(built), LlamaForCausalLM)
    assert tok.apply_chat_template([{"role": "user", "content": "1+1"}], tokenize=False)


def test_default_model_path_without_build(tiny_default):
    with pytest.raises(FileNotFoundError, match="policy_opt.pretrain"):
        default_model_path(build=False)


def test_cache_root_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path))
    assert model_mod.cache_root() == tmp_path
    monkeypatch.delenv("RLVR_CACHE")
    assert model_mod.cache_root().name == "rlvr"


def test_the_shipped_default_model_is_the_current_recipes_output():
    """The weights under policy_opt/default_model are used only while the recipe that made
    them is unchanged; a recipe change without a rebuild must fail here, not silently fall
    back to a minutes-long build on every user's machine."""
    from policy_opt.models import SHIPPED_DIR, default_model_path, shipped_recipe_hash

    assert shipped_recipe_hash() == pretrain.recipe_hash(pretrain.Recipe()), (
        "recipe changed: run `python -m policy_opt.pretrain --out policy_opt/default_model`")
    assert default_model_path(build=False) == SHIPPED_DIR
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(SHIPPED_DIR)
    tok = AutoTokenizer.from_pretrained(SHIPPED_DIR)
    assert sum(p.numel() for p in model.parameters()) == 2_410_944
    assert tok.eos_token == "<|im_end|>"


def _strip_tokens(folder, keys):
    """Remove ``keys`` (e.g. eos_token) from the saved tokenizer's files."""
    import json

    for name in ("tokenizer_config.json", "special_tokens_map.json"):
        f = folder / name
        if f.is_file():
            data = json.loads(f.read_text())
            for k in keys:
                data.pop(k, None)
            f.write_text(json.dumps(data))


def test_a_tokenizer_without_eos_takes_the_model_configs(tiny_dir):
    path, _ = tiny_dir
    _strip_tokens(path, ("eos_token", "pad_token"))
    model, tok = load_policy(path)
    assert tok.eos_token_id == model.config.eos_token_id == 259
    assert tok.pad_token_id == 259


def test_a_model_without_any_eos_is_a_clear_error(tiny_dir):
    import json

    path, _ = tiny_dir
    _strip_tokens(path, ("eos_token", "pad_token"))
    for name in ("config.json", "generation_config.json"):
        f = path / name
        if f.is_file():
            data = json.loads(f.read_text())
            # null, not absent: an absent id takes the config class's default (Llama's is 2).
            data["eos_token_id"] = None
            f.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="no end-of-sequence token"):
        load_policy(path)


def test_an_empty_folder_is_named_as_not_a_model(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="has no config.json"):
        load_policy(tmp_path / "empty")


@pytest.mark.parametrize("damage", ["missing", "truncated", "garbage"])
def test_missing_or_corrupt_weights_name_the_model(tiny_dir, damage):
    path, _ = tiny_dir
    weights = path / "model.safetensors"
    if damage == "missing":
        weights.unlink()
    elif damage == "truncated":
        weights.write_bytes(weights.read_bytes()[:200])
    else:
        weights.write_bytes(b"\0" * 4096)
    with pytest.raises(OSError, match="could not load model") as info:
        load_policy(path)
    # The hub advice is for hub ids; a local folder's message stays about the folder.
    assert "network" not in str(info.value)


def test_a_bidirectional_model_is_refused(tmp_path):
    from transformers import BertConfig, BertForMaskedLM

    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=260, hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                     intermediate_size=64)
    BertForMaskedLM(cfg).save_pretrained(tmp_path / "bert")
    default_tokenizer().save_pretrained(tmp_path / "bert")
    with pytest.raises(ValueError, match="is not causal"):
        load_policy(tmp_path / "bert")
    # The same weights as a decoder are causal and load.
    cfg.is_decoder = True
    cfg.save_pretrained(tmp_path / "bert")
    model, _ = load_policy(tmp_path / "bert")
    assert model.config.is_decoder


class _JitteryLM(torch.nn.Module):
    """Logits = a per-position embedding (+ the sequence's sum when ``leak``), plus per-row
    noise of 1e-4, like a GPU kernel whose reductions are not bitwise repeatable."""

    def __init__(self, leak: bool) -> None:
        super().__init__()
        from types import SimpleNamespace

        self.config = SimpleNamespace(vocab_size=16)
        self.emb = torch.nn.Embedding(16, 16)
        self.leak = leak
        self.gen = torch.Generator().manual_seed(0)

    def forward(self, input_ids, attention_mask):
        from types import SimpleNamespace

        logits = self.emb(input_ids)
        if self.leak:
            logits = logits + 0.05 * self.emb(input_ids).sum(dim=1, keepdim=True)
        noise = 1e-4 * torch.randn(logits.shape, generator=self.gen)
        return SimpleNamespace(logits=logits + noise)


def test_the_causality_check_allows_kernel_noise_but_not_a_leak():
    from policy_opt.models.loading import check_causal

    check_causal(_JitteryLM(leak=False))  # noise alone: causal
    with pytest.raises(ValueError, match="is not causal"):
        check_causal(_JitteryLM(leak=True))
