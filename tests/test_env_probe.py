"""``python -m envs probe``: every built-in env holds; deliberately leaky envs are caught."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_envs import DATA

from envs.probe import FAMILIES, Play, call_table, lookup_program, paste, probe

ROOT = Path(__file__).resolve().parents[1]
BUILT_IN = ["guess-number", "calculator", "arithmetic", "countdown", "gsm8k", "math500",
            "mbpp", "humaneval", "code-feedback", "tool-calculator", "tool-python", "tool-search"]
NEEDS_DATA = {"gsm8k", "math500", "mbpp", "humaneval", "code-feedback"}


@pytest.fixture(autouse=True)
def _data_dir(monkeypatch):
    if DATA:
        monkeypatch.setenv("RLVR_DATA_DIR", DATA)
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # odd_envs


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_built_in_env_passes_the_probe(name):
    if name in NEEDS_DATA and DATA is None:
        pytest.skip("RLVR_DATA_DIR is unset and ../shared/data does not exist")
    report = probe(name, rows=2, seed=0)
    assert set(report.families) == {*FAMILIES, "after_end", "malformed"}
    assert report.passed, [(f.family, f.kind, f.detail) for f in report.findings]
    # the attacks did run: every family played its episodes
    assert all(row["episodes"] == 2 for row in report.families.values())


def test_a_leaky_env_is_caught_with_an_episode_to_paste():
    report = probe("odd_envs:LeakyQuiz", rows=3, families=["lookup", "stall"])
    paid = [f for f in report.findings if f.kind == "paid"]
    assert [f.family for f in paid] == ["lookup"]
    assert report.families["lookup"]["mean_reward"] == 1.0
    assert report.families["stall"]["mean_reward"] == 0.0
    # the episode replays: its second action is the secret the feedback quoted
    import odd_envs

    env = odd_envs.LeakyQuiz()
    env.reset(seed=paid[0].seed)
    assert env.step(paid[0].actions[0])[1] == 0.0
    assert env.step(paid[0].actions[1])[1] == 1.0


def test_an_observation_past_its_space_is_caught():
    report = probe("odd_envs:EchoEveryLine", rows=1, families=["flood", "stall"])
    assert [(f.family, f.kind) for f in report.findings] == [("flood", "space")]
    assert "not within the observation space" in report.findings[0].detail


def test_paying_after_the_end_and_crashing_on_none_are_caught():
    report = probe("odd_envs:PaysAfterTheEnd", rows=1, families=["after_end", "malformed"])
    kinds = {(f.family, f.kind): f.detail for f in report.findings}
    assert "paid 1.0" in kinds[("after_end", "after_end")]
    assert "raised AttributeError" in kinds[("malformed", "malformed")]


def test_the_lookup_policy_copies_quoted_asserts():
    names, table = call_table("Test 1: assert f('abcabc') == 'a'\nTest 2: f(*[1]) == 2")
    assert (names, table) == (["f"], [(("abcabc",), "a")])
    program = lookup_program("assert add(1, 2) == 3")
    namespace: dict = {}
    exec(program.strip("`").removeprefix("python\n"), namespace)
    assert namespace["add"](1, 2) == 3 and namespace["add"](2, 2) is None
    # turn 1 of a multi-turn env is a stub; the last turn is the table
    assert "_stub" in FAMILIES["lookup"].policy(Play([], 1, 3))
    assert "_T = [((1, 2), 3)]" in FAMILIES["lookup"].policy(
        Play([{"role": "user", "content": "assert add(1, 2) == 3"}], 1, 1))


def test_paste_writes_long_runs_short():
    assert paste("x" * 10_000_000 + "\n#### 4") == "'x' * 10000000 + '\\n#### 4'"
    assert eval(paste("ab" * 300)) == "ab" * 300


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    if DATA:
        env["RLVR_DATA_DIR"] = DATA
    return subprocess.run([sys.executable, "-m", "envs", "probe", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_cli_exit_status_and_json():
    ok = _cli("guess-number", "--rows", "2")
    assert ok.returncode == 0 and ok.stdout.strip().endswith("probe guess-number: PASS")
    leaky = _cli("odd_envs:LeakyQuiz", "--family", "lookup", "--json")
    assert leaky.returncode == 1
    report = json.loads(leaky.stdout)
    assert not report["passed"] and report["findings"][0]["kind"] == "paid"
    assert "env.step(" in report["findings"][0]["episode"]
    # the user's module form: --module imports it, then its class is named
    assert _cli("--module", "odd_envs", "odd_envs:LeakyQuiz", "--family", "stall").returncode == 0
    assert _cli("no-such-env").returncode == 2
    assert _cli("guess-number", "--family", "nope").returncode == 2
    listed = _cli("--list-families")
    assert listed.returncode == 0 and "lookup" in listed.stdout and "malformed" in listed.stdout


def test_the_docs_family_example_registers_and_plays():
    import re

    text = (ROOT / "docs" / "env_probe.md").read_text(encoding="utf-8")
    code = re.findall(r"```python\n(# my_families.py.*?)```", text, flags=re.S)[0]
    assert len(code.strip().splitlines()) <= 14  # "a family in about a dozen lines"
    exec(compile(code, "docs/env_probe.md", "exec"), {"__name__": "my_families"})
    try:
        report = probe("odd_envs:LeakyQuiz", rows=1, families=["shout"])
        assert report.families["shout"]["episodes"] == 1
    finally:
        FAMILIES.pop("shout", None)
