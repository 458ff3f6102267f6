"""``python -m verifiers check ...``: verdict, both answers, reason, --json, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verifiers.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run_main(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, out


def test_format_text_output_and_exit_codes(capsys):
    code, out = run_main(capsys, "check", "format", "--pred", "<think>a</think><answer>4</answer>")
    assert code == 0
    assert "verdict: correct (reward 1)" in out and "pred:    4" in out
    code, out = run_main(capsys, "check", "format", "--pred", "<answer>4</answer>")
    assert code == 1
    assert "verdict: incorrect (reward 0)" in out
    assert "reason:  missing_tag: <think> not found" in out


def test_format_options(capsys):
    pred = "Sure. <answer>4</answer>"
    assert run_main(capsys, "check", "format", "--pred", pred, "--tags", "answer")[0] == 1
    argv = ["check", "format", "--pred", pred, "--tags", "answer", "--allow-text-outside"]
    assert run_main(capsys, *argv)[0] == 0
    assert (
        run_main(capsys, "check", "format", "--pred", pred, "--tags", "", "--pattern", r"\d")[0]
        == 0
    )
    code, out = run_main(
        capsys, "check", "format", "--pred", pred, "--tags", "", "--max-chars", "3"
    )
    assert code == 1 and "too_long" in out


def test_format_json(capsys):
    code, out = run_main(
        capsys, "check", "format", "--pred", "<answer>4</answer>", "--tags", "answer", "--json"
    )
    record = json.loads(out)
    assert code == 0
    assert record == {
        "family": "format",
        "reward": 1.0,
        "correct": True,
        "reason": "correct",
        "pred": "4",
        "gold": None,
        "details": {"tags": ["answer"]},
    }


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["check"],
        ["check", "algebra", "--pred", "x"],
        ["check", "format"],
        ["check", "math", "--pred", "1"],  # --gold is required
        ["check", "format", "--pred", "x", "--max-chars", "-1"],
        ["check", "format", "--pred", "x", "--tags", "<bad>"],  # a ValueError from format_check
        ["check", "gsm8k", "--gold", "many", "--pred", "1"],  # a gold gsm8k cannot read
        ["check", "gsm8k", "--gold", "1", "--pred", "1", "--policy", "lenient"],
        ["check", "math", "--gold", "1", "--pred", "1", "--timeout", "0"],
    ],
)
def test_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def test_gsm8k(capsys):
    code, out = run_main(capsys, "check", "gsm8k", "--gold", "#### 1,000", "--pred", "so 1000.")
    assert code == 0 and "pred:    1000" in out and "gold:    1000" in out
    code, out = run_main(
        capsys, "check", "gsm8k", "--gold", "#### 18", "--pred", "It is 18.", "--policy", "strict"
    )
    assert code == 1 and "reason:  no_answer" in out
    code, out = run_main(capsys, "check", "gsm8k", "--gold", "18", "--pred", "#### 17", "--json")
    record = json.loads(out)
    assert code == 1
    assert (record["reward"], record["pred"], record["gold"], record["reason"]) == (
        0.0,
        "17",
        "18",
        "wrong",
    )


def test_math(capsys):
    code, out = run_main(capsys, "check", "math", "--gold", r"\frac12", "--pred", "so it is $0.5$")
    assert code == 0
    assert "verdict: correct" in out and r"gold:    \frac12" in out and "pred:    0.5" in out
    code, out = run_main(
        capsys, "check", "math", "--gold", "0.25", "--pred", "the answer is 25", "--json"
    )
    record = json.loads(out)
    assert code == 1 and record["reward"] == 0.0 and record["pred"] == "25"


def run_module(*argv, stdin=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "verifiers", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_python_dash_m_reads_stdin_and_sets_the_exit_code():
    done = run_module("check", "format", "--pred", "-", stdin="<think>a</think><answer>4</answer>")
    assert done.returncode == 0, done.stderr
    assert "verdict: correct" in done.stdout
    done = run_module("check", "format", "--pred", "-", stdin="just text")
    assert done.returncode == 1 and "missing_tag" in done.stdout
    done = run_module("check", "nonsense")
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_format_check_stays_light():
    code = (
        "import sys; from verifiers.cli import main; main(['check', 'format', '--pred', 'x']);"
        "print(sorted(m for m in ('sympy', 'torch', 'math_verify') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


def test_invalid_pattern_is_a_usage_error_naming_the_flag(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check", "format", "--pred", "x", "--tags", "", "--pattern", "("])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument --pattern: not a valid regular expression: missing )" in err
    assert "Traceback" not in err


def run_strict(*argv: str, stdin: bytes = b"", encoding: str = "utf-8"):
    """The module under a strict stdio codec, as some locales and PYTHONIOENCODING give.
    (stderr may hold math_verify's warning about its own timeout; ours is the deadline.)"""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": f"{encoding}:strict"}
    return subprocess.run(
        [sys.executable, "-m", "verifiers", *argv],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_non_utf8_stdin_is_scored_not_a_traceback():
    done = run_strict("check", "gsm8k", "--gold", "#### 18", "--pred", "-", stdin=b"\xff\xfe 18")
    assert done.returncode == 0, done.stderr
    assert b"verdict: correct" in done.stdout and b"Traceback" not in done.stderr
    # the bad byte reaches the verdict as U+FFFD and is printed, not a crash
    done = run_strict("check", "math", "--gold", "1", "--pred", "-", stdin=b"\\boxed{\xff}")
    assert done.returncode == 1, done.stderr
    assert "pred:    \ufffd" in done.stdout.decode("utf-8"), done.stderr
    assert b"Traceback" not in done.stderr


def test_non_utf8_argument_and_unprintable_output_are_escaped():
    done = run_strict("check", "math", "--gold", "1", "--pred", os.fsdecode(b"\\boxed{\xff}"))
    assert done.returncode == 1 and b"Error" not in done.stderr, done.stderr
    done = run_strict("check", "math", "--gold", "é", "--pred", r"\boxed{é}", encoding="ascii")
    assert done.returncode == 0 and b"Error" not in done.stderr, done.stderr
    assert b"pred:    \\xe9" in done.stdout
    done = run_strict(
        "check", "math", "--gold", "é", "--pred", r"\boxed{é}", "--json", encoding="ascii"
    )
    assert done.returncode == 0 and b"Error" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["pred"] == "é"  # escaped the JSON way: still valid JSON
