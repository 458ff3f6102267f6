"""docs/new_task.md stays true: its code blocks run, the example is under 15 lines, and the
CLI lines it shows print what it says."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tasks
from tasks.audit import audit

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "new_task.md").read_text()
PYTHON = re.findall(r"```python\n(.*?)```", DOC, re.S)
BASH = re.findall(r"```bash\n(.*?)```", DOC, re.S)


def test_the_example_is_complete_and_under_15_lines() -> None:
    assert len(PYTHON) == 3, "docs/new_task.md: expected the example, its use, the file variant"
    assert len(PYTHON[0].strip().splitlines()) < 15


def test_the_example_and_its_use_run_and_audit_clean(capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict = {}
    exec(compile(PYTHON[0], "docs/new_task.md[0]", "exec"), namespace)
    exec(compile(PYTHON[1], "docs/new_task.md[1]", "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == "1.0"
    assert "What is 2*0?" in printed[0]
    report = audit(tasks.get("double"))
    assert (report.passed, report.checked) == (200, 200)  # 100 train + 100 test


def test_the_cli_lines_print_what_the_doc_says(tmp_path: Path) -> None:
    (tmp_path / "my_tasks.py").write_text(PYTHON[0])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    audit_line = next(line for line in BASH[0].splitlines() if " audit " in line)
    command, _, promised = audit_line.partition("# ends with: ")
    args = command.split()[1:]  # drop "python"
    out = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == promised.strip()


# exec'd code is not importable, so its reward function cannot be pickled and the rubric warns;
# in the user's own module it would be.
@pytest.mark.filterwarnings("ignore:reward functions")
def test_the_file_backed_variant_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "capitals"
    folder.mkdir()
    rows = [{"question": "Capital of France?", "answer": "Paris"}]
    (folder / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    namespace: dict = {}
    exec(compile(PYTHON[0], "docs/new_task.md[0]", "exec"), namespace)
    exec(compile(PYTHON[2], "docs/new_task.md[2]", "exec"), namespace)
    task = tasks.get("capitals")
    row = task.rows("test")[0]
    assert row.answer == "Paris" and task.score(row, "Paris").total == 1.0
    assert audit(task, splits=["test"]).failures == []


def test_the_training_commands_train_on_the_task(tmp_path: Path, tiny_model: Path) -> None:
    """The doc's last block, run as written from the folder holding my_tasks.py; the flags
    appended after it (argparse: the last value wins) shrink the run to one tiny step."""
    assert DOC.rstrip().endswith("```"), "docs/new_task.md must end with the training block"
    commands = [line for line in BASH[-1].splitlines() if line.startswith("python ")]
    assert len(commands) == 2 and all(" policy_opt.train " in c for c in commands)
    (tmp_path / "my_tasks.py").write_text(PYTHON[0])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the toolkit; my_tasks comes from the cwd
    tiny = ["--model", str(tiny_model), "--max-steps", "1", "--prompts-per-step", "2",
            "--group-size", "2", "--max-new-tokens", "4", "--eval-prompts", "2", "--eval-k", "1",
            "--threads", "1", "--env-workers", "1"]
    for command in commands:
        args = command.split()[1:]
        out = subprocess.run([sys.executable, *args, *tiny], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        run = tmp_path / args[args.index("--out") + 1]
        records = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
        assert any(r["kind"] == "train" for r in records)
        assert json.loads((run / "config.json").read_text())["env"] == args[args.index("--env") + 1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--module", "my_taskz", "--env", "double"],
         "error: --module my_taskz: cannot import it: ModuleNotFoundError: No module named "
         "'my_taskz'; run from the folder that holds my_taskz.py (or add that folder to "
         "PYTHONPATH)"),
        (["--env", "double"], "--module my_tasks)"),
        (["--env", "my_taskz:double"], "No module named 'my_taskz'; run from the folder"),
        (["--module", "my_tasks", "--env", "my_tasks:triple"],
         "my_tasks has no gymnasium.Env class, task or task factory 'triple'"),
    ],
)
def test_a_missing_module_or_unknown_task_is_one_line_naming_the_fix(
    tmp_path: Path, argv: list[str], message: str
) -> None:
    (tmp_path / "my_tasks.py").write_text(PYTHON[0])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-m", "policy_opt.train", *argv, "--out", str(tmp_path / "r")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
    assert message in lines[0]
