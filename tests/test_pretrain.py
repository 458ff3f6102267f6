"""The warm-start recipe: deterministic, loss on completions only, atomic output, CLI."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
import torch

from policy_opt import pretrain as pretrain_cli
from policy_opt.models import default_tokenizer
from policy_opt.models import warm_start as pretrain
from policy_opt.models.warm_start import Recipe, _collate, answer_line, build, recipe_hash

TINY_MODEL = {
    "hidden_size": 32,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "intermediate_size": 64,
}


@dataclass(frozen=True)
class _Row:
    id: str
    prompt: tuple
    answer: str
    info: dict


class _TinyAddition:
    """A stand-in for tasks' arithmetic: the same row/reference interface, no rubric."""

    def rows(self, split="train", *, seed=0, limit=None, path=None):
        rng = random.Random(f"{split}-{seed}")
        out = []
        for i in range(limit or 50):
            a, b = rng.randint(0, 9), rng.randint(0, 9)
            msg = {"role": "user", "content": f"What is {a}+{b}?"}
            out.append(
                _Row(f"add/{split}/{i}", (msg,), str(a + b), {"steps": (f"{a}+{b}={a + b}",)})
            )
        return out

    def reference_completion(self, row):
        return f"{row.info['steps'][0]}\n#### {row.answer}"


@pytest.fixture
def fake_tasks(monkeypatch):
    monkeypatch.setattr(pretrain, "_get_task", lambda name, kwargs: _TinyAddition())


def tiny_recipe(**kw) -> Recipe:
    base = dict(
        steps=3,
        batch_size=8,
        rows_per_task=32,
        eval_rows=4,
        eval_max_new_tokens=6,
        model=TINY_MODEL,
        threads=1,
    )
    return Recipe(**{**base, **kw})


def test_collate_masks_the_prompt_and_padding():
    ids, labels, mask = _collate([([1, 2, 3], [4, 5]), ([6], [7])], pad_id=0)
    assert ids.tolist() == [[1, 2, 3, 4, 5], [6, 7, 0, 0, 0]]
    assert labels.tolist() == [[-100, -100, -100, 4, 5], [-100, 7, -100, -100, -100]]
    assert mask.tolist() == [[1, 1, 1, 1, 1], [1, 1, 0, 0, 0]]


def test_answer_line():
    assert answer_line("3+4=7\n#### 7") == "7"
    assert answer_line("#### 1,234\n") == "1234"
    assert answer_line("#### -5") == "-5"
    assert answer_line("the answer is 7") is None


def test_recipe_hash_tracks_every_field():
    assert recipe_hash(Recipe()) == recipe_hash(Recipe())
    assert recipe_hash(Recipe()) != recipe_hash(Recipe(seed=1))
    assert recipe_hash(Recipe()) != recipe_hash(Recipe(model=TINY_MODEL))


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        ({"steps": 0}, "steps"),
        ({"lr": 0.0}, "lr"),
        ({"tasks": ()}, "tasks"),
        ({"eval_rows": -1}, "eval_rows"),
    ],
)
def test_recipe_rejects_bad_values(kw, name):
    with pytest.raises(ValueError, match=name):
        Recipe(**kw)


def test_build_is_deterministic_and_loads(fake_tasks, tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    a = build(tiny_recipe(), tmp_path / "a", verbose=False)
    b = build(tiny_recipe(), tmp_path / "b", verbose=False)
    assert a["final_loss"] == b["final_loss"]
    assert 0.0 <= a["greedy_accuracy"] <= 1.0
    ma = AutoModelForCausalLM.from_pretrained(tmp_path / "a")
    mb = AutoModelForCausalLM.from_pretrained(tmp_path / "b")
    for (name, pa), pb in zip(ma.state_dict().items(), mb.state_dict().values()):
        assert torch.equal(pa, pb), name
    assert (tmp_path / "a" / "model.safetensors").is_file()
    summary = json.loads((tmp_path / "a" / "recipe.json").read_text())
    assert summary["recipe_hash"] == recipe_hash(tiny_recipe())
    tok = AutoTokenizer.from_pretrained(tmp_path / "a")
    assert tok.encode("12", add_special_tokens=False) == [ord("1"), ord("2")]
    assert tok.eos_token_id == default_tokenizer().eos_token_id
    # Nothing but the finished model is left in the parent directory.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_training_lowers_the_completion_loss(fake_tasks, tmp_path):
    short = build(tiny_recipe(steps=1), tmp_path / "s", verbose=False)
    longer = build(tiny_recipe(steps=15, lr=1e-2), tmp_path / "l", verbose=False)
    assert longer["final_loss"] < short["final_loss"]


def test_failed_build_leaves_nothing(monkeypatch, tmp_path):
    def boom(name, kwargs):
        raise KeyError(f"unknown task {name!r}")

    monkeypatch.setattr(pretrain, "_get_task", boom)
    with pytest.raises(KeyError, match="unknown task"):
        build(tiny_recipe(), tmp_path / "m", verbose=False)
    assert list(tmp_path.iterdir()) == []


def test_cli_builds_and_reports(fake_tasks, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(
        pretrain,
        "Recipe",
        lambda **kw: tiny_recipe(
            **{k: v for k, v in kw.items() if k in ("steps", "seed", "tasks")}
        ),
    )
    assert (
        pretrain_cli.main(["--out", str(tmp_path / "cli"), "--steps", "2", "--task", "arithmetic:1"])
        == 0
    )
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(report) >= {"recipe_hash", "greedy_accuracy", "total_seconds"}
    assert (tmp_path / "cli" / "config.json").is_file()


def test_cli_rejects_a_bad_task_weight(tmp_path, capsys):
    with pytest.raises(SystemExit):
        pretrain_cli.main(["--out", str(tmp_path / "x"), "--task", "arithmetic:heavy"])
    assert "--task" in capsys.readouterr().err


def test_slipped_reports_the_first_step_after_every_step():
    assert pretrain.slipped(["3+4=7", "7-2=5"]) == "3+4=7\n7-2=5\n#### 7"
    assert pretrain.slipped(["12*3=36", "36+1=37", "37-7=30"]).endswith("\n#### 36")


@pytest.mark.parametrize("slip", [0.0, 0.7, 1.0])
def test_the_slip_touches_that_share_of_multi_step_demonstrations_only(slip):
    import tasks

    tok = default_tokenizer()
    recipe = Recipe(slip=slip, rows_per_task=600)
    examples = pretrain._examples("arithmetic", {}, recipe, tok)
    rows = tasks.get("arithmetic").rows("train", seed=recipe.seed, limit=600)
    assert len(examples) == len(rows)
    slipped = {1: 0, 2: 0}
    visible = 0  # multi-step rows whose first step's result is not the answer
    for (_, c_ids), row in zip(examples, rows):
        text = tok.decode(c_ids, skip_special_tokens=True)
        steps = list(row.info["steps"])
        assert text.split("\n")[:-1] == steps  # the worked steps are always right
        first = steps[0].rsplit("=", 1)[1]
        if answer_line(text) != row.answer:
            slipped[len(steps)] += 1
            assert answer_line(text) == first
        visible += len(steps) > 1 and first != row.answer
    assert slipped[1] == 0  # single-step demonstrations are never touched
    assert visible > 200
    # 0 and 1 are exact; 0.7 is a seeded draw per row: within 4 standard errors.
    assert abs(slipped[2] / visible - slip) <= 4 * (0.7 * 0.3 / visible) ** 0.5
    assert examples == pretrain._examples("arithmetic", {}, recipe, tok)  # seeded


@pytest.mark.parametrize("kind", ["empty", "unrelated-dir", "file"])
def test_build_refuses_an_out_it_could_destroy(kind, tmp_path, monkeypatch):
    # A build replaces --out wholesale; `--out ''` once wiped a checkout (the working dir).
    monkeypatch.chdir(tmp_path)
    (tmp_path / "keep.txt").write_text("precious")
    out = {"empty": "", "unrelated-dir": str(tmp_path), "file": str(tmp_path / "keep.txt")}[kind]
    trained = []
    monkeypatch.setattr(pretrain, "_train_and_save", lambda *a, **k: trained.append(1))
    with pytest.raises(ValueError, match="--out"):
        build(tiny_recipe(), out, verbose=False)
    assert trained == []  # refused before spending any training time
    assert (tmp_path / "keep.txt").read_text() == "precious"


def test_build_replaces_an_earlier_model_build(fake_tasks, tmp_path):
    out = tmp_path / "m"
    out.mkdir()
    (out / "config.json").write_text("{}")
    (out / "recipe.json").write_text('{"recipe_hash": "stale"}')
    summary = build(tiny_recipe(), out, verbose=False)
    assert json.loads((out / "recipe.json").read_text())["recipe_hash"] == summary["recipe_hash"]


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--task", "nope"], "unknown task 'nope'"),
        (["--task", "arithmetic:nan"], "finite number > 0"),
        (["--task", "arithmetic:inf"], "finite number > 0"),
        (["--out", ""], "--out is empty"),
    ],
)
def test_cli_rejects_bad_input_before_training(argv, needle, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(pretrain, "build", lambda *a, **k: pytest.fail("build ran"))
    with pytest.raises(SystemExit) as exc:
        pretrain_cli.main(["--out", str(tmp_path / "x"), *argv])
    assert exc.value.code == 2
    assert needle in capsys.readouterr().err


def test_shipped_model_was_rehashed_only_with_evidence():
    # The shipped weights are used while their recipe hash matches; a re-hash without a
    # rebuild must say why and how the training path was shown to be unchanged.
    from policy_opt.models import SHIPPED_DIR

    meta = json.loads((SHIPPED_DIR / "recipe.json").read_text())
    chain = [meta["recipe_hash"]]
    for step in reversed(meta.get("rehashed", [])):
        assert step["to"] == chain[-1] and step["why"] and step["evidence"]
        chain.append(step["from"])
    assert len(set(chain)) == len(chain)
