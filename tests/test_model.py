"""Loading policies: the default model (built once into a cache), local paths, hub ids."""

from __future__ import annotations

import pytest
import torch
from test_pretrain import TINY_MODEL, _TinyAddition, tiny_recipe
from transformers import AutoModelForCausalLM, LlamaForCausalLM

from policy_opt import model as model_mod
from policy_opt import pretrain
from policy_opt.model import default_config, default_model_path, default_tokenizer, load_policy


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
    from policy_opt import pretrain
    from policy_opt.model import SHIPPED_DIR, default_model_path, shipped_recipe_hash

    assert shipped_recipe_hash() == pretrain.recipe_hash(pretrain.Recipe()), (
        "recipe changed: run `python -m policy_opt.pretrain --out policy_opt/default_model`")
    assert default_model_path(build=False) == SHIPPED_DIR
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(SHIPPED_DIR)
    tok = AutoTokenizer.from_pretrained(SHIPPED_DIR)
    assert sum(p.numel() for p in model.parameters()) == 2_410_944
    assert tok.eos_token == "<|im_end|>"
