"""Endless tasks are bounded everywhere: ``python -m tasks audit`` and ``show`` and
``python -m verifiers probe`` take a default limit on a task that declares itself endless,
say so, and return; ``Task.rows`` without a limit refuses instead of never returning."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tasks import Problem, Task
from tasks import audit as audit_mod
from tasks.audit import audit
from tasks.base import ENDLESS_LIMIT
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import RewardFunc, Rubric

ROOT = Path(__file__).resolve().parents[1]

MODULE = textwrap.dedent('''
    import itertools
    import tasks
    from tasks import Problem, Prompt, Task
    from verifiers.gsm8k import gsm8k_check
    from verifiers.rubric import RewardFunc, Rubric

    @tasks.register("forever")
    def forever() -> Task:
        def problems(split, seed, path):
            return (Problem(f"forever/{split}/{i}", f"What is 2*{i}?", str(2 * i))
                    for i in itertools.count())
        rubric = Rubric([RewardFunc("accuracy", gsm8k_check)])
        return Task("forever", problems, rubric, prompt=Prompt("End with '#### N'."),
                    reference=lambda row: f"#### {row.answer}", endless=True)
''')


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "endless_tasks.py").write_text(MODULE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    # the timeout is the test: before the bound, these never returned
    return subprocess.run([sys.executable, "-m", *args, "--module", "endless_tasks"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_audit_of_an_endless_task_takes_the_default_limit_and_says_so(tmp_path):
    done = _run(tmp_path, "tasks", "audit", "forever", "--split", "test", "-q")
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith(f"audit forever: {ENDLESS_LIMIT}/{ENDLESS_LIMIT} references")
    assert "endless task" in line and "--limit" in line


def test_audit_limit_still_wins_on_an_endless_task(tmp_path):
    done = _run(tmp_path, "tasks", "audit", "forever", "--split", "test", "--limit", "7")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "audit forever: 7/7 references score 1.0"


def test_show_of_an_endless_task_says_so(tmp_path):
    done = _run(tmp_path, "tasks", "show", "forever", "-n", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("(task forever is endless: its first 2 rows")
    assert done.stdout.count("=== forever/train/") == 2


def test_probe_of_an_endless_task_returns_and_says_so(tmp_path):
    done = _run(tmp_path, "tasks", "probe", "forever", "-n", "2", "--family",
                "control")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "PASS: 6 probes on 2 rows" in done.stdout
    assert f"is endless: rows drawn from its first {ENDLESS_LIMIT}" in done.stderr


def _forever(endless: bool) -> Task:
    def problems(split, seed, path):
        return (Problem(f"f/{split}/{i}", f"{i}?", str(i)) for i in itertools.count())

    return Task("f", problems, Rubric([RewardFunc("accuracy", gsm8k_check)]),
                reference=lambda row: f"#### {row.answer}", endless=endless)


def test_rows_without_a_limit_on_an_endless_task_refuses():
    with pytest.raises(ValueError, match="is endless: give rows"):
        _forever(True).rows("test")
    assert len(_forever(True).rows("test", limit=3)) == 3


def test_an_undeclared_endless_task_stops_at_the_row_cap(monkeypatch):
    monkeypatch.setattr(audit_mod, "MAX_ROWS", 50)
    report = audit(_forever(False), splits=["test"])
    assert report.checked == 50
    assert "may be endless" in report.summary("f")


def test_a_long_audit_reports_progress_and_how_to_bound_it(monkeypatch, capsys):
    from tasks import __main__ as tasks_cli
    from tasks import registry

    monkeypatch.setattr(audit_mod, "MAX_ROWS", 50)
    monkeypatch.setattr(tasks_cli, "PROGRESS_EVERY_S", 0.0)  # every row, for the test
    monkeypatch.setattr(tasks_cli, "HINT_AFTER_ROWS", 20)
    monkeypatch.setitem(registry._REGISTRY, "undeclared_forever", lambda: _forever(False))
    assert tasks_cli.main(["audit", "undeclared_forever", "--split", "test"]) == 0
    out, err = capsys.readouterr()
    assert "may be endless" in out.splitlines()[-1]
    lines = err.splitlines()
    # Not silent: an undeclared endless task runs to the row cap, minutes on a real one.
    assert lines[0] == "audit undeclared_forever: 1 rows of split test scored so far"
    # past a size no shipped split reaches, once: how to bound it
    hints = [i for i, x in enumerate(lines) if "--limit N" in x and "Task(endless=True)" in x]
    assert hints == [20], lines
    assert lines[-1] == "audit undeclared_forever: 50 rows of split test scored so far"


def test_audit_reports_progress_while_it_scores_not_after(monkeypatch):
    scored: list[int] = []
    real_score = Task.score

    def counting(self, row, completion):  # type: ignore[no-untyped-def]
        scored.append(1)
        return real_score(self, row, completion)

    monkeypatch.setattr(Task, "score", counting)
    seen: list[tuple[int, int]] = []
    audit(_forever(True), splits=["test"], limit=5,
          progress=lambda split, done: seen.append((done, len(scored))))
    assert seen == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
