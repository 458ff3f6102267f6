"""--lora-r: only the adapters train, checkpoints hold them, --resume and evaluation load
them, and a separate engine receives the merged weights."""

from __future__ import annotations

import json
import sys

import pytest
import torch

pytest.importorskip("peft", reason="pip install peft (the dev extra has it)")

from policy_opt.config import ConfigError  # noqa: E402
from policy_opt.evaluate import main as evaluate_main  # noqa: E402
from policy_opt.models import load_policy  # noqa: E402
from policy_opt.models.lora import MergedView, add_adapters, merged_state_dict  # noqa: E402
from policy_opt.train import main  # noqa: E402

# The default model earns rewards on arithmetic, so the adapters get a gradient.
SHAPE = ["--model", "default", "--env", "arithmetic", "--prompts-per-step", "4",
         "--group-size", "4", "--max-new-tokens", "24", "--eval-prompts", "4", "--eval-k", "2",
         "--threads", "1", "--eval-every", "0", "--lr", "1e-3", "--lora-r", "4"]


def _records(out):
    return [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()
            if json.loads(x)["kind"] == "train"]


def test_only_adapters_train_and_checkpoints_hold_only_them(tmp_path):
    out = tmp_path / "run"
    assert main([*SHAPE, "--out", str(out), "--max-steps", "2"]) == 0
    ckpt = out / "checkpoints" / "step-000002"
    assert (ckpt / "adapter_model.safetensors").is_file()
    assert not (ckpt / "model.safetensors").exists() and not (ckpt / "config.json").exists()
    from safetensors.torch import load_file

    adapters = load_file(str(ckpt / "adapter_model.safetensors"))
    assert adapters and all(".lora_" in k for k in adapters)
    assert any(v.abs().max() > 0 for k, v in adapters.items() if "lora_B" in k)  # it learnt
    state = torch.load(ckpt / "trainer_state.pt", weights_only=False)
    n_optimised = sum(s["exp_avg"].numel() for s in state["optimizer"]["state"].values())
    assert n_optimised == sum(v.numel() for v in adapters.values())
    # Loaded as a model: the base with the adapters merged; the base itself is untouched.
    merged, _ = load_policy(str(ckpt))
    base, _ = load_policy("default")
    changed = [k for k, v in base.state_dict().items()
               if not torch.equal(v, merged.state_dict()[k])]
    assert changed and all(k.endswith(".weight") and "proj" in k for k in changed)


def test_resume_with_adapters_repeats_the_uninterrupted_run(tmp_path):
    full, part = tmp_path / "full", tmp_path / "part"
    assert main([*SHAPE, "--out", str(full), "--max-steps", "3", "--save-every", "0"]) == 0
    assert main([*SHAPE, "--out", str(part), "--max-steps", "2"]) == 0
    assert main(["--out", str(part), "--max-steps", "3", "--resume"]) == 0
    a, b = _records(full), _records(part)
    for key in ("reward_mean", "loss", "grad_norm", "len_mean"):
        assert a[2][key] == b[2][key], key
    # An adapter run folder evaluates like any run (merged weights).
    assert evaluate_main(["--model", str(part), "--out", str(tmp_path / "e"), "--threads",
                          "1"]) == 0


def test_the_merged_weights_compute_what_the_adapted_model_computes(tiny_model):
    model, _ = load_policy(str(tiny_model))
    names = set(model.state_dict())
    add_adapters(model, r=2, alpha=4.0, target="q_proj,v_proj")
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.normal_()  # B starts at 0; make the adapters do something
    plain, _ = load_policy(str(tiny_model))
    merged = MergedView(model).state_dict()
    assert set(merged) == names  # the base model's names: what a vLLM engine loads
    plain.load_state_dict(merged)
    ids = torch.tensor([[5, 6, 7, 8]])
    with torch.no_grad():
        want, got = model(input_ids=ids).logits, plain(input_ids=ids).logits
    assert not torch.allclose(want, load_policy(str(tiny_model))[0](input_ids=ids).logits)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    assert merged_state_dict(model).keys() == merged.keys()


def test_bad_lora_settings_are_one_line_errors(tiny_model, tmp_path, capsys, monkeypatch):
    base = ["--model", str(tiny_model), "--out", str(tmp_path / "r"), "--threads", "1"]
    assert main([*base, "--lora-r", "-1"]) == 2
    assert capsys.readouterr().err.strip() == "error: --lora-r must be >= 0, got -1"
    assert main([*base, "--lora-r", "4", "--lora-target", "no_such_proj"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--lora-target 'no_such_proj'" in err[0]
    monkeypatch.setitem(sys.modules, "peft", None)
    with pytest.raises(ConfigError, match="pip install peft"):
        add_adapters(load_policy(str(tiny_model))[0], 4, 8.0, "all-linear")
