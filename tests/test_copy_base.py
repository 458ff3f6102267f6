"""``policy_opt.models.copy_base`` (the copy task, its cached build) and
``benchmarks/copy_pretrain.py`` (the same training, printed against a uniform guess)."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import copy_pretrain  # noqa: E402

from policy_opt.models import copy_base  # noqa: E402
from policy_opt.models.default import default_tokenizer  # noqa: E402


def test_examples_repeat_the_digits_after_the_same_delimiter() -> None:
    tok = default_tokenizer()
    rng = random.Random(3)
    for _ in range(200):
        ids, start = copy_base.copy_example(rng, copy_base.CopyRecipe(), tok)
        text = tok.decode(ids)
        m = re.fullmatch(r"(.)(\d{4,10})>([a-z ,.]{0,60})\1(\d{4,10})>", text, re.DOTALL)
        assert m is not None, text
        assert m.group(2) == m.group(4)
        assert text[start:].rstrip(">") == m.group(2)  # the loss starts at the second copy


def test_the_batch_labels_only_the_second_copy() -> None:
    tok = default_tokenizer()
    ids, labels, mask = copy_base.copy_batch(random.Random(0), 8, copy_base.CopyRecipe(), tok)
    for r in range(8):
        text = tok.decode(ids[r][mask[r] == 1].tolist())
        second = re.fullmatch(r".\d+>[a-z ,.]*.(\d+)>", text, re.DOTALL).group(1)
        assert tok.decode([t for t in labels[r].tolist() if t != -100]) == second


def test_the_build_learns_is_cached_and_names_its_recipe(tmp_path) -> None:
    recipe = copy_base.CopyRecipe(steps=12, lr=3e-3, threads=1)
    out = copy_base.build(recipe, tmp_path / "copy", verbose=False)
    summary = json.loads((out / "copy_base.json").read_text())
    assert summary["recipe_hash"] == copy_base.recipe_hash(recipe)
    (step0, first0, rest0), (step12, _, rest12) = summary["copy_ratios"]
    assert (step0, step12) == (0, 12)
    assert first0 > 1.0 and rest12 < rest0  # untrained: worse than a guess among digits
    mtime = (out / "model.safetensors").stat().st_mtime_ns
    assert copy_base.build(recipe, out, verbose=False) == out  # cached: not trained again
    assert (out / "model.safetensors").stat().st_mtime_ns == mtime
    again = copy_base.build(recipe, tmp_path / "again", verbose=False)  # seeded: the same model
    assert (again / "model.safetensors").read_bytes() == (out / "model.safetensors").read_bytes()
    assert copy_base.recipe_hash(recipe) != copy_base.recipe_hash(copy_base.CopyRecipe(steps=13))
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "x").write_text("")
    with pytest.raises(ValueError, match="holds no copy base"):
        copy_base.build(recipe, tmp_path / "other", verbose=False)


@pytest.mark.parametrize("bad", [{"steps": 0}, {"min_len": 5, "max_len": 4}, {"delims": ""},
                                 {"lr": float("nan")}, {"gap": -1}, {"batch_size": True}])
def test_bad_recipes_name_the_field(bad) -> None:
    with pytest.raises(ValueError, match=next(iter(bad)).split("_")[0]):
        copy_base.CopyRecipe(**bad)


def test_the_benchmark_lowers_the_copy_loss_and_saves_a_model(tmp_path, capsys) -> None:
    out = tmp_path / "copy-base"
    assert copy_pretrain.main(["--steps", "12", "--every", "12", "--lr", "3e-3", "--threads", "1",
                               "--out", str(out)]) == 0
    rows = re.findall(r"step +(\d+)  first digit ([\d.]+)  other digits ([\d.]+)", capsys.readouterr().out)
    assert [int(r[0]) for r in rows] == [0, 12]
    assert float(rows[1][2]) < float(rows[0][2])  # the digits are no longer uniform guesses
    from policy_opt.models.policy import load_policy

    model, _ = load_policy(str(out), verbose=False)
    assert model.config.num_hidden_layers == 4
    for bad in (["--steps", "0"], ["--every", "0"], ["--min-len", "9", "--max-len", "3"]):
        with pytest.raises(SystemExit):
            copy_pretrain.main(bad)
