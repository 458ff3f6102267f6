"""Task, Row, registry, prompts, generated tasks, determinism, the audit and the CLI."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pickle
import re
import subprocess
import sys

import pytest

import tasks
from tasks import Problem, Prompt, Row, Task, render_plain
from tasks.__main__ import main
from tasks.arithmetic import LEVELS, Difficulty
from tasks.audit import audit
from verifiers.rubric import RewardFunc, Rubric

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _exact(completion: str, answer: str, **info: object) -> float:
    return float(completion.strip() == f"#### {answer}")


def _toy(n: int = 5, reference=lambda row: f"#### {row.answer}", few_shot: int = 0) -> Task:
    def problems(split: str, seed: int, path: str | None):
        return (Problem(f"toy/{split}/{i}", f"2*{i}?", str(2 * i), {"i": i}) for i in range(n))

    return Task(
        "toy",
        problems,
        Rubric([RewardFunc("accuracy", _exact)]),
        prompt=Prompt("End with '#### N'.", few_shot=few_shot),
        reference=reference,
    )


# --- Row, Problem -------------------------------------------------------------------------


def test_row_is_frozen_read_only_and_picklable() -> None:
    row = Row("r/0", [{"role": "user", "content": "hi"}], "1", {"tests": [1, 2]})
    assert row.prompt == ({"role": "user", "content": "hi"},) and isinstance(row.prompt, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.answer = "2"  # type: ignore[misc]
    with pytest.raises(TypeError):
        row.info["tests"] = []  # type: ignore[index]
    back = pickle.loads(pickle.dumps(row))
    assert back == row and dict(back.info) == {"tests": [1, 2]}
    assert hash(back) == hash(row)


# --- registry -----------------------------------------------------------------------------


def test_builtins_are_listed() -> None:
    for name in ("gsm8k", "math500", "mbpp", "humaneval", "arithmetic", "countdown"):
        assert name in tasks.names()


def test_register_get_and_kwargs() -> None:
    @tasks.register("toy-test")
    def toy(n: int = 5) -> Task:
        return _toy(n)

    assert "toy-test" in tasks.names()
    assert len(tasks.get("toy-test", n=3).rows("train")) == 3


def test_registry_errors_are_clear() -> None:
    with pytest.raises(KeyError, match="unknown task 'nope'.*gsm8k"):
        tasks.get("nope")
    with pytest.raises(ValueError, match="built-in"):
        tasks.register("gsm8k")(lambda: _toy())

    @tasks.register("not-a-task")
    def bad() -> object:
        return 42

    with pytest.raises(TypeError, match="expected a Task"):
        tasks.get("not-a-task")


def test_module_colon_factory_form() -> None:
    task = tasks.get("tasks.arithmetic:arithmetic", level=2)
    assert task.name == "arithmetic"


# --- prompts ------------------------------------------------------------------------------


def test_prompt_renders_system_shots_and_instruction() -> None:
    prompt = Prompt("End with '#### N'.", system="You are careful.")
    messages = prompt.render("1+1?", shots=[("2+2?", "#### 4")])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[-1]["content"] == "1+1?\n\nEnd with '#### N'."
    assert messages[2]["content"] == "#### 4"
    assert Prompt().render("q") == ({"role": "user", "content": "q"},)


def test_render_plain_ends_with_the_generation_prompt() -> None:
    messages = ({"role": "system", "content": "S"}, {"role": "user", "content": "Q"})
    assert render_plain(messages) == "System: S\n\nUser: Q\n\nAssistant:"
    assert render_plain(messages, add_generation_prompt=False) == "System: S\n\nUser: Q"
    with pytest.raises(ValueError, match=r"messages\[0\]"):
        render_plain([{"content": "no role"}])


def test_prompt_validates_its_template() -> None:
    with pytest.raises(ValueError, match="question"):
        Prompt("x", template="{instruction}")
    with pytest.raises(ValueError, match="few_shot"):
        Prompt(few_shot=-1)


def test_few_shot_examples_come_from_train_and_leave_it() -> None:
    task = _toy(n=6, few_shot=2)
    train = task.rows("train")
    assert [r.id for r in train] == [f"toy/train/{i}" for i in range(2, 6)]
    messages = task.rows("test", limit=1)[0].prompt
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant", "user"]
    assert messages[1]["content"] == "#### 0" and messages[3]["content"] == "#### 2"


def test_rows_rejects_unknown_split_and_bad_limit() -> None:
    task = _toy()
    with pytest.raises(ValueError, match="no split 'dev'"):
        task.rows("dev")
    with pytest.raises(ValueError, match="limit"):
        task.rows("train", limit=-1)
    assert task.rows("train", limit=0) == []


# --- generated tasks: every reference scores 1.0 ------------------------------------------


@pytest.mark.parametrize("name", ["arithmetic", "countdown"])
def test_generated_references_all_score_one_over_10000_rows(name: str) -> None:
    report = audit(tasks.get(name), splits=["train"], limit=10_000)
    assert report.checked == 10_000
    assert report.failures == [], report.failures[:5]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_arithmetic_level_audits_clean(level: int) -> None:
    report = audit(tasks.get("arithmetic", level=level), splits=["test"], limit=1000)
    assert report.checked == 1000 and report.failures == [], report.failures[:5]


def test_countdown_use_all_audits_clean() -> None:
    task = tasks.get("countdown", use_all=True, n_numbers=3)
    report = audit(task, splits=["test"], limit=500)
    assert report.checked == 500 and report.failures == [], report.failures[:5]


def test_level_one_is_small_and_non_negative() -> None:
    rows = tasks.get("arithmetic", level=1).rows("train", limit=2000)
    for row in rows:
        step = row.info["steps"][0]  # "a+b=c"
        assert len(row.info["steps"]) == 1 and int(row.answer) >= 0
        a, b = step.split("=")[0].replace("-", "+").split("+")
        assert 0 <= int(a) <= 9 and 0 <= int(b) <= 9
    assert {"+", "-"} <= {c for r in rows for c in r.info["steps"][0] if c in "+-"}


def test_the_default_level_chains_one_digit_steps_seen_in_training() -> None:
    task = tasks.get("arithmetic")  # level 2
    train, test = task.rows("train", limit=4000), task.rows("test", limit=1000)
    for row in test:
        operands = re.findall(r"\d+", row.prompt[-1]["content"].split("?")[0])
        assert len(operands) in (2, 3) and all(len(x) == 1 for x in operands)
        assert all(int(s.split("=")[1]) >= 0 for s in row.info["steps"])
    assert {len(r.info["steps"]) for r in test} == {1, 2}
    # Test problems are new as wholes, but nearly every step in them occurs in training:
    # what RL teaches on the train split can carry over to held-out problems.
    seen = {s for r in train for s in r.info["steps"]}
    steps = [s for r in test for s in r.info["steps"]]
    assert sum(s in seen for s in steps) / len(steps) > 0.95
    assert not {r.info["steps"] for r in train} & {r.info["steps"] for r in test}


def test_word_problems_appear_with_their_fraction() -> None:
    rows = tasks.get("arithmetic", word_frac=1.0).rows("test", limit=50)
    assert all("How many" in r.prompt[-1]["content"] for r in rows)
    none = tasks.get("arithmetic", word_frac=0.0).rows("test", limit=50)
    assert not any("How many" in r.prompt[-1]["content"] for r in none)


def test_wrong_answers_score_below_one() -> None:
    task = tasks.get("arithmetic", level=3)
    row = task.rows("test", limit=1)[0]
    wrong = task.score(row, f"#### {int(row.answer) + 1}")
    assert wrong.breakdown["accuracy"] == 0.0 and wrong.total < 0.5
    unformatted = task.score(row, f"The answer is {row.answer}")
    assert unformatted.breakdown["accuracy"] == 1.0 and unformatted.breakdown["format"] == 0.0
    assert 0.5 < unformatted.total < 1.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"level": 9}, "level"),
        ({"digits": 0}, "digits"),
        ({"operands": 1}, "operands"),
        ({"ops": "+/"}, "ops"),
        ({"word_frac": 2.0}, "word_frac"),
        ({"n_train": -1}, "n_train"),
    ],
)
def test_arithmetic_knobs_are_validated(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        tasks.get("arithmetic", **kwargs)


def test_difficulty_levels_get_harder() -> None:
    assert LEVELS[1] == Difficulty()
    maxima = [LEVELS[k].digits[1] * LEVELS[k].operands[1] for k in sorted(LEVELS)]
    assert maxima == sorted(maxima)


# --- determinism --------------------------------------------------------------------------


def _fingerprint(name: str, **kwargs: object) -> str:
    rows = tasks.get(name, **kwargs).rows("train", seed=3, limit=200)
    text = json.dumps([[r.id, r.prompt, r.answer, dict(r.info)] for r in rows], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# Pinned: the rows of seed 3 on the machine that wrote this test. A change here means every
# seeded experiment on these tasks changed; update only on purpose.
PINNED = {
    "arithmetic": "a2a89bcfb20d17c43b8315ee6eeb930da25676c15e27a700fa283dff1d21e43f",
    "countdown": "721ec3c3caaf39c73fe4a7a7c68a10088fb2eeb0254e6f6a44364a1aea8c8115",
}


@pytest.mark.parametrize("name", ["arithmetic", "countdown"])
def test_same_seed_same_rows_on_any_machine(name: str) -> None:
    kwargs = {"level": 6} if name == "arithmetic" else {}
    assert _fingerprint(name, **kwargs) == PINNED[name]


def test_same_rows_in_a_fresh_interpreter_with_another_hash_seed() -> None:
    code = (
        "import tests.test_tasks as t; "
        "print(t._fingerprint('arithmetic', level=6), t._fingerprint('countdown'))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [_fingerprint("arithmetic", level=6), _fingerprint("countdown")]


def test_seed_split_and_limit_semantics() -> None:
    task = tasks.get("arithmetic", level=4)
    a, b = task.rows("train", seed=0, limit=50), task.rows("train", seed=1, limit=50)
    assert [r.prompt for r in a] != [r.prompt for r in b]
    assert task.rows("train", seed=0, limit=10) == a[:10]  # limit never changes the rows
    test = task.rows("test", seed=0, limit=50)
    assert [r.prompt for r in test] != [r.prompt for r in a]


# --- audit and CLI ------------------------------------------------------------------------


def test_audit_lists_each_failure_with_its_reason() -> None:
    task = _toy(n=4, reference=lambda row: "#### 0")  # right only for row 0
    report = audit(task, splits=["test"])
    assert (report.passed, report.checked) == (1, 4)
    assert [f.row_id for f in report.failures] == ["toy/test/1", "toy/test/2", "toy/test/3"]
    assert all("accuracy=0" in f.reason for f in report.failures)
    assert report.summary("toy") == "audit toy: 1/4 references score 1.0"


def test_cli_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    listing = capsys.readouterr().out
    assert "arithmetic" in listing and "countdown" in listing
    assert main(["show", "arithmetic", "-n", "2", "--split", "test"]) == 0
    out = capsys.readouterr().out
    assert out.count("=== arithmetic/test/") == 2 and "--- reward: 1.0" in out
    assert main(["show", "countdown", "-n", "1", "--plain"]) == 0
    assert "\n\nAssistant:" in capsys.readouterr().out


def test_cli_audit_final_line_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "arithmetic", "--limit", "50", "-o", "level=2"]) == 0
    assert (
        capsys.readouterr().out.splitlines()[-1] == "audit arithmetic: 100/100 references score 1.0"
    )

    @tasks.register("toy-broken")
    def broken() -> Task:
        return _toy(n=3, reference=lambda row: "#### 0")

    assert main(["audit", "toy-broken"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "audit toy-broken: 2/6 references score 1.0"
    assert sum(line.startswith("FAIL toy/") for line in lines) == 4

    assert main(["audit", "nope"]) == 2
    assert "unknown task" in capsys.readouterr().err


def test_cli_runs_as_a_module() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "tasks", "audit", "countdown", "--limit", "20", "--split", "test"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "audit countdown: 20/20 references score 1.0"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--module", "rlvr_no_such_module"], "--module rlvr_no_such_module: cannot import it"),
        (["--module", "nomod:factory"], "a factory goes in the task argument"),
        (["-o", "few_shot=abc"], "-o few_shot='abc': expected int, got str"),
        (["-o", "few_shot=True"], "-o few_shot=True: expected int, got bool"),
        (["-o", "fewshot=1"], "-o fewshot: not an option of this task"),
        (["-o", "level='x'"], "-o level='x': expected int, got str"),
    ],
)
def test_cli_bad_module_or_option_is_one_line_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    for command in ("show", "audit"):
        assert main([command, "arithmetic", "--split", "test", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, err


def test_cli_unimportable_task_module_is_one_line_error(capsys) -> None:
    assert main(["show", "rlvr_no_such_module:factory"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: task rlvr_no_such_module:factory: cannot import it: ModuleNotFoundError: "
        "No module named 'rlvr_no_such_module'\n"
    )
    assert main(["show", "tasks.arithmetic:nosuch"]) == 2
    assert (
        capsys.readouterr().err == "error: module 'tasks.arithmetic' has no task factory 'nosuch'\n"
    )


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["audit", "arithmetic", "--workers", "0"], "--workers"),
        (["audit", "arithmetic", "--workers", "-1"], "--workers"),
        (["audit", "arithmetic", "--limit", "0"], "--limit"),
        (["show", "arithmetic", "-n", "-1"], "-n"),
    ],
)
def test_cli_counts_must_be_positive(capsys, argv: list[str], flag: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert f"argument {flag}: expected a positive integer" in capsys.readouterr().err


def test_cli_audit_of_an_empty_split_is_an_error_not_a_pass(capsys) -> None:
    assert main(["audit", "arithmetic", "--split", "test", "-o", "n_test=0"]) == 2
    captured = capsys.readouterr()
    assert "0/0 references score 1.0; no rows in split test" in captured.out
    assert captured.err == "error: nothing to audit in split test (no rows)\n"
    report = audit(tasks.get("arithmetic", n_test=0), splits=["train", "test"], limit=2)
    assert report.empty == ["test"] and report.checked == 2


def test_cli_bad_data_file_is_one_line_error(tmp_path, capsys) -> None:
    (tmp_path / "test.jsonl").mkdir()
    deep = tmp_path / "deep" / "test.jsonl"
    deep.parent.mkdir()
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    for folder, message in ((tmp_path, "is a directory"), (deep, "nested too deeply")):
        assert main(["show", "gsm8k", "--split", "test", "--path", str(folder)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, err


def test_cli_output_into_a_closed_pipe_ends_quietly() -> None:
    # `| head -1`: the reader leaves after one line; no BrokenPipeError traceback
    proc = subprocess.Popen(
        [sys.executable, "-m", "tasks", "show", "arithmetic", "-n", "300"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"=== arithmetic/")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize("level", [1, 2, 5])
def test_arithmetic_train_and_test_share_no_computation(level: int) -> None:
    task = tasks.get("arithmetic", level=level)
    train = {r.info["steps"] for r in task.rows("train", limit=3000)}
    test = {r.info["steps"] for r in task.rows("test", limit=1000)}
    assert train and test and not train & test


def test_arithmetic_split_that_cannot_be_filled_is_a_clear_error(monkeypatch) -> None:
    import tasks.arithmetic as arith

    monkeypatch.setattr(arith, "in_test_split", lambda g: False)
    monkeypatch.setattr(arith, "_SPLIT_TRIES", 50)
    with pytest.raises(ValueError, match="no test problem in 50 draws"):
        tasks.get("arithmetic").rows("test", limit=1)


@pytest.mark.parametrize("bad", ["abc", True, 1.5, -1])
def test_prompt_few_shot_must_be_a_non_negative_int(bad: object) -> None:
    with pytest.raises(ValueError, match=re.escape(f"few_shot must be an int >= 0, got {bad!r}")):
        Prompt("x", few_shot=bad)  # type: ignore[arg-type]
