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
