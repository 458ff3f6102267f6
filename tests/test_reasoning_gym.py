"""reasoning-gym's datasets as tasks (``rg:NAME``, the optional extra): strict scoring by
default, seeding, curricula, composites, the name forms ``--env`` passes, and the one-line
error without the package. Tests that need the package skip without it (it is an optional
extra); CI installs it, so they run there."""

from __future__ import annotations

import json
import pickle
import sys

import pytest

import tasks
from tasks.__main__ import main as tasks_main
from tasks.mixture import is_mixture, parse_mixture


@pytest.fixture
def no_reasoning_gym(monkeypatch):
    # None in sys.modules makes `import reasoning_gym` raise ImportError, as if not installed
    monkeypatch.setitem(sys.modules, "reasoning_gym", None)


def test_without_the_package_tasks_get_says_how_to_install(no_reasoning_gym):
    with pytest.raises(ImportError, match=r"pip install -e '\.\[reasoning-gym\]'"):
        tasks.get("rg:leg_counting")


def test_without_the_package_the_cli_fails_in_one_line(no_reasoning_gym, capsys):
    assert tasks_main(["show", "rg:leg_counting"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "pip install -e '.[reasoning-gym]'" in err


@pytest.mark.slow  # 16 s: the trainer's imports
def test_without_the_package_train_fails_in_one_line_before_loading_a_model(
        no_reasoning_gym, tmp_path, capsys):
    from policy_opt.train import main

    assert main(["--env", "rg:leg_counting", "--out", str(tmp_path / "x"),
                 "--max-steps", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "--env" in err and "pip install -e '.[reasoning-gym]'" in err


def test_the_task_list_names_the_family_and_how_to_get_it(no_reasoning_gym, capsys):
    assert tasks_main(["list"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("rg:NAME"))
    assert "pip install -e '.[reasoning-gym]'" in line


def test_a_weighted_query_name_is_a_mixture_and_a_plain_query_is_not():
    assert not is_mixture("rg:leg_counting?level=2&size=50")
    assert parse_mixture("rg:leg_counting?level=2&size=50") is None
    m = parse_mixture("rg:leg_counting?level=2=0.25,arithmetic=0.75")
    assert m.names == ("rg:leg_counting?level=2", "arithmetic")
    assert m.weights == (0.25, 0.75)
    assert parse_mixture(["rg:gcd?size=9=1", "gsm8k=3"]).names == ("rg:gcd?size=9", "gsm8k")
    assert parse_mixture("gsm8k=0.7,math500=0.3").names == ("gsm8k", "math500")  # unchanged


# --- with the package ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def rg():
    return pytest.importorskip("reasoning_gym")


def _near_miss(gold: str) -> str:
    """A wrong answer that contains the gold (``-41`` for ``-4``): reasoning-gym's default
    scorer pays len(gold)/len(answer) for it."""
    return gold + "1"


@pytest.mark.parametrize("name", ["leg_counting", "basic_arithmetic", "gcd"])
def test_strict_is_the_default_and_pays_nothing_for_partial_credit(rg, name):
    strict = tasks.get(f"rg:{name}", size=20, test_size=5)
    partial = tasks.get(f"rg:{name}", size=20, test_size=5, partial=True)
    row = strict.rows("test", limit=1)[0]
    wrong = f"<answer>{_near_miss(row.answer)}</answer>"
    raw = partial.score(row, wrong)
    assert 0 < raw.breakdown["accuracy"] < 1  # reasoning-gym's own partial credit
    assert "partial" in raw.reasons["accuracy"]
    assert strict.score(row, wrong).breakdown["accuracy"] == 0.0
    for task in (strict, partial):
        assert task.score(row, task.reference_completion(row)).total == 1.0


def test_the_answer_is_the_last_tag_and_nothing_may_follow_it(rg):
    task = tasks.get("rg:leg_counting", size=5, test_size=5)
    row = task.rows("test", limit=1)[0]
    gold, other = row.answer, str(int(row.answer) + 1)
    pays = {
        f"Counting: 2+2 ... <answer>{gold}</answer>\n": 1.0,
        f"<answer>{gold}</answer> or maybe {other}": 0.0,
        f"<answer>{other}</answer> no wait <answer>{gold}</answer>": 0.0,
        f"\\boxed{{{other}}} and <answer>{gold}</answer>": 0.0,
        f"#### {other}\n<answer>{gold}</answer>": 0.0,
        f"the answer is {gold}": 0.0,
    }
    for completion, expected in pays.items():
        assert task.score(row, completion).breakdown["accuracy"] == expected, completion


def test_a_scorer_that_raises_on_the_answer_scores_zero_not_no_signal(rg):
    # prime_factorization's scorer int()s each factor: '11 units' raises ValueError there
    task = tasks.get("rg:prime_factorization", size=5, test_size=5)
    row = task.rows("test", limit=1)[0]
    score = task.score(row, "<answer>11 units</answer>")
    assert score.total is not None and score.breakdown["accuracy"] == 0.0
    assert "scorer refused" in score.reasons["accuracy"] and not score.errors


def test_rows_are_seeded_and_splits_differ(rg):
    task = tasks.get("rg:basic_arithmetic", size=30, test_size=30)

    def questions(split, seed=0, task=task):
        return [r.prompt[-1]["content"] for r in task.rows(split, seed=seed, limit=30)]

    assert questions("train") == questions("train")
    assert questions("train") != questions("train", seed=1)
    assert questions("train") != questions("test")
    other = tasks.get("rg:basic_arithmetic", size=30, test_size=30, seed=7)
    assert questions("train", task=other) != questions("train")
    assert [r.id for r in task.rows("test", limit=2)] == ["rg:basic_arithmetic/test/0",
                                                          "rg:basic_arithmetic/test/1"]


def test_the_curriculum_level_sets_the_difficulty(rg):
    def animals(level):
        task = tasks.get("rg:leg_counting", size=40, level=level)
        return {r.info["rg_metadata"]["num_animals"] for r in task.rows("train")}

    assert animals(0) == {1}  # the curriculum's first level: one kind of animal
    assert max(animals(5)) > 1
    per_attribute = tasks.get("rg:leg_counting", size=20, level={"num_animals": 2})
    assert {r.info["rg_metadata"]["num_animals"] for r in per_attribute.rows("train")} <= {1, 2, 3}
    with pytest.raises(ValueError, match="no attribute"):
        tasks.get("rg:leg_counting", level={"legs": 1})


def test_the_name_query_is_the_same_as_keywords(rg):
    by_name = tasks.get("rg:leg_counting?level=1&size=10&partial=True")
    by_kwargs = tasks.get("rg:leg_counting", level=1, size=10, partial=True)
    assert [r.prompt for r in by_name.rows("train")] == [r.prompt for r in by_kwargs.rows("train")]
    assert by_name.name == "rg:leg_counting"


def test_config_fields_are_checked_and_bad_names_fail_in_one_line(rg, capsys):
    row = tasks.get("rg:leg_counting", size=5, min_animals=4, max_animals=4).rows("train")[0]
    assert row.info["rg_metadata"]["num_animals"] == 4
    with pytest.raises(ValueError, match="min_animal.*not an option"):
        tasks.get("rg:leg_counting", min_animal=4)
    with pytest.raises(ValueError, match="max_animals must be >= min_animals"):
        tasks.get("rg:leg_counting", min_animals=5, max_animals=2)
    for name, why in (("rg:no_such_dataset", "unknown reasoning-gym dataset"),
                      ("rg:gcd?level", "expected KEY=VALUE"),
                      ("rg:gcd?level=easy", "level must be an int")):
        assert tasks_main(["show", name]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and why in err, err


def test_composites_mix_datasets_and_score_with_each_ones_scorer(rg):
    task = tasks.get("rg:leg_counting+gcd", size=40)
    rows = task.rows("train")
    sources = {r.info["rg_metadata"]["source_dataset"] for r in rows}
    assert sources == {"leg_counting", "gcd"}
    assert all(task.score(r, task.reference_completion(r)).total == 1.0 for r in rows[:10])
    weighted = tasks.get("rg:composite", size=30, datasets={"gcd": 1, "lcm": {"weight": 1e-9}})
    assert {r.info["rg_metadata"]["source_dataset"] for r in weighted.rows("train")} == {"gcd"}


def test_the_env_runs_an_episode_and_pickles(rg):
    import envs

    env = envs.make("rg:leg_counting?size=5", split="test")
    messages, _ = env.reset(seed=0)
    row = env.unwrapped.row
    _, reward, terminated, _, info = env.step(f"<answer>{row.answer}</answer>")
    assert terminated and reward == 1.0 and info["correct"]
    copy = pickle.loads(pickle.dumps(env.unwrapped))
    assert copy.reset(seed=0)[0] == messages


def test_the_probe_runs_on_a_reasoning_gym_task(rg, capsys):
    tasks_main(["probe", "rg:leg_counting", "-n", "2", "--json"])
    report = json.loads(capsys.readouterr().out)
    totals = report["totals"]
    assert totals["probes"] > 100
    # every control (the reference, restated) is paid and nothing errs or overruns
    assert totals["false_negatives"] == totals["errors"] == totals["overruns"] == 0, totals
    # reasoning-gym's own reading (the last tag, whatever follows) paid these in full
    for family in ("hedge", "later_value", "prose_alternative", "or_scripts", "padding",
                   "hidden_commitment", "early_gold"):
        assert report["families"][family]["false_positives"] == 0, family


@pytest.mark.slow
def test_a_reasoning_gym_task_trains_from_the_cli_on_the_default_model(rg, tmp_path):
    from policy_opt.train import main

    out = tmp_path / "rg"
    assert main(["--env", "rg:leg_counting", "--algo", "grpo", "--max-steps", "2",
                 "--prompts-per-step", "2", "--group-size", "2", "--max-new-tokens", "8",
                 "--eval-prompts", "2", "--threads", "1", "--out", str(out)]) == 0
    steps = [r for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
             if r["kind"] == "train"]
    assert [r["step"] for r in steps] == [1, 2]
    assert json.loads((out / "config.json").read_text())["env"] == "rg:leg_counting"
