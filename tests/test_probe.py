"""``python -m verifiers probe`` (a reward function) and ``python -m tasks probe`` (a task's
rubric): it finds what a gameable reward pays for, passes a correct one, reports every broken
call on its own line without stopping, and runs on every built-in task."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tasks.__main__ import main as tasks_main
from verifiers.cli import main
from verifiers.number_words import number_words
from verifiers.probes import ProbeRow, families, generate, pasteable
from verifiers.probes.answer import find_slot, wrong_answer

ROOT = Path(__file__).resolve().parent.parent
_SHARED = ROOT.parent / "shared" / "data"
DATA = os.environ.get("RLVR_DATA_DIR") or (str(_SHARED) if _SHARED.is_dir() else None)
ROWS = [
    {"answer": "18", "reference": "9+9=18\n#### 18", "question": "What is 9+9?"},
    {"answer": "1250", "reference": "1000+250=1250\n#### 1250"},
]


@pytest.fixture
def data(tmp_path: Path) -> str:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return str(path)


def probe_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["probe", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


# ----------------------------------------------------------------------------- the families


def test_the_answer_slot_is_the_final_marked_answer() -> None:
    assert find_slot("so 1,000\n#### 1,000", "1000").text == "1,000"
    slot = find_slot(r"We get $\boxed{\frac{1}{2}}$.", r"\frac12")
    assert (slot.text, slot.open, slot.close) == (r"\frac{1}{2}", "\\boxed{", "}")
    assert find_slot("x=12, so 2", "2").before == "x=12, so "  # a whole token, not 12's 2
    assert find_slot("no answer here", "7").text == "7"  # appended: "The answer is 7."


@pytest.mark.parametrize(
    "answer, wrong",
    [("18", "19"), ("-1,250", "-1,251"), (r"\frac{1}{2}", r"\frac{1}{3}"), (r"\text{(C)}", r"\text{(D)}"),
     (r"\pi", r"\pi+1"), ("0.5", "0.6")],
)  # fmt: skip
def test_the_wrong_answer_keeps_the_notation_and_changes_the_value(answer, wrong) -> None:
    assert wrong_answer(answer) == wrong


def test_number_words() -> None:
    assert [number_words(n) for n in (0, 19, 40, 105, 1250)] == [
        "zero", "nineteen", "forty", "one hundred five", "one thousand two hundred fifty",
    ]  # fmt: skip
    assert number_words(10**6) is None


def test_every_family_is_pure_and_labels_each_probe_0_or_1() -> None:
    row = ProbeRow("r", "18", "9+9=18\n#### 18", "What costs $18?")
    first, errors = generate(row, "text")
    again, _ = generate(row, "text")
    assert errors == [] and first == again  # pure: same row, same probes
    assert {p.expected for p in first} == {0, 1}
    text_families = {n for n, f in families().items() if f.kind == "text"}
    assert {p.family for p in first} == text_families - {"case"}  # "18" has no letter to swap
    swapped, _ = generate(ProbeRow("r", "3r^2", r"so $\boxed{3r^2}$"), "text", only=["case"])
    assert [p.completion for p in swapped] == [r"so $\boxed{3R^2}$"]
    controls = [p.completion for p in first if p.expected == 1]
    assert "9+9=18\n#### 18" in controls
    # no attack restates the right answer in the reference's own words
    assert all(p.completion != "9+9=18\n#### 18" for p in first if p.expected == 0)


def test_code_families_write_a_program_per_attack() -> None:
    tests = ({"assert_code": "assert poly([1], 2) == 0\nassert inc(1) == 2", "entry_point": "inc"},)
    row = ProbeRow("r", "def inc(x):\n    return x + 1", "```python\ndef inc(x):\n    return x + 1\n```",
                   info={"tests": tests})  # fmt: skip
    probes, errors = generate(row, "code")
    assert errors == []
    by_family = {p.family for p in probes}
    assert by_family == {n for n, f in families().items() if f.kind == "code"}
    helper = [p.completion for p in probes if p.family == "helper_redefinition"]
    assert helper and all("def poly(" in c and "def inc(" in c for c in helper)
    for p in probes:
        code = p.completion.removeprefix("Here is my solution.\n\n")
        compile(code.removeprefix("```python\n").removesuffix("\n```"), p.variant, "exec")


def test_a_family_that_raises_is_reported_and_the_others_still_run() -> None:
    from verifiers.probes import FAMILIES, family

    @family("explodes")
    def explodes(row):
        raise RuntimeError("boom")

    try:
        probes, errors = generate(ProbeRow("r", "5", "#### 5"), "text", only=["explodes", "hedge"])
    finally:
        FAMILIES.pop("explodes")
    assert [(e.family, e.row_id) for e in errors] == [("explodes", "r")]
    assert "RuntimeError: boom" in errors[0].message
    assert probes and {p.family for p in probes} == {"hedge"}


def test_pasteable_gives_back_the_completion() -> None:
    for text in ("#### 18" + " " * 2100 + "or 19", "12 " * 350_000 + "\n#### 19", "a'b\"c\n\u200b"):
        expr = pasteable(text)
        assert eval(expr) == text  # noqa: S307 - our own repr output
        assert len(expr) < 200
    assert "chars cut" in pasteable("x" + "".join(map(str, range(500))), limit=80)


# ----------------------------------------------------------------------------- rewards


def test_a_gameable_reward_is_caught_with_exit_1(capsys, data) -> None:
    code, report = probe_json(
        capsys, "--reward", "tests.probe_rewards:substring", "--data", data,
        "--reference-key", "reference",
    )  # fmt: skip
    assert code == 1 and not report["passed"]
    assert report["families"]["hedge"]["false_positives"] > 0
    assert report["totals"]["false_negatives"] == 0  # it pays for every right answer too
    found = {(f["kind"], f["family"], f["variant"]): f for f in report["findings"]}
    hedge = found["false_positive", "hedge", "a or w"]
    assert eval(hedge["completion"]) == "9+9=18\n#### 18 or 19"  # noqa: S307
    assert hedge["rows"] == ["rows.jsonl:1", "rows.jsonl:2"]  # the name: see the folder test


@pytest.mark.parametrize(
    "reward, extra",
    [("answer_line", ["--reference-key", "reference"]), ("exact", [])],
)
def test_a_correct_reward_passes_with_exit_0(capsys, data, reward, extra) -> None:
    code, report = probe_json(capsys, "--reward", f"tests.probe_rewards:{reward}", "--data", data,
                              *extra)  # fmt: skip
    assert report["totals"]["false_positives"] == 0, report["findings"]
    assert report["totals"]["false_negatives"] == 0
    assert report["totals"]["probes"] > 100
    assert code == 0 and report["passed"]


def test_a_reward_that_pays_a_negated_or_bounded_gold_is_caught(capsys, data) -> None:
    """Correct but for ``... not N`` / ``... than N``: only the negation family may flag it,
    and it must, with both forms."""
    code, report = probe_json(
        capsys, "--reward", "tests.probe_rewards:pays_negations", "--data", data,
        "--reference-key", "reference",
    )  # fmt: skip
    assert code == 1 and not report["passed"]
    paid = {name for name, f in report["families"].items() if f["false_positives"]}
    assert paid == {"negation"}, paid
    variants = {f["variant"] for f in report["findings"] if f["kind"] == "false_positive"}
    assert any(v.endswith("not a") for v in variants), variants
    assert any(v.endswith("than a") for v in variants), variants
    assert report["totals"]["false_negatives"] == 0


def test_a_reward_that_reads_hidden_text_is_caught_by_the_hidden_family(capsys, data) -> None:
    code, report = probe_json(
        capsys, "--reward", "tests.probe_rewards:reads_hidden", "--data", data,
        "--reference-key", "reference", "--family", "hidden_commitment", "--family", "control",
    )  # fmt: skip
    assert code == 1
    assert report["families"]["hidden_commitment"]["false_positives"] > 0
    assert report["totals"]["false_negatives"] == 0


GRAMMAR_FAMILIES = ["negation", "joined_commitments", "or_scripts", "markup_alternative",
                    "later_value", "prose_alternative", "comparator", "hidden_commitment",
                    "amount_words", "quadratic_time", "blank_markup", "earlier_answer"]  # fmt: skip


def test_grammar_families_are_generated_per_row_and_hold_the_issue_examples() -> None:
    one = ProbeRow("r1", "5", r"so $\boxed{5}$")
    other = ProbeRow("r2", "5", r"so $\boxed{5}$")
    first, errors = generate(one, "text", only=GRAMMAR_FAMILIES)
    assert errors == []
    by_family: dict[str, list[str]] = {}
    for p in first:
        assert p.expected == 0, p
        by_family.setdefault(p.family, []).append(p.completion)
    assert set(by_family) == set(GRAMMAR_FAMILIES)
    for name in set(GRAMMAR_FAMILIES) - {"comparator", "amount_words", "quadratic_time"}:
        assert len(set(by_family[name])) >= 20, name  # a sample of a grammar, not a list
    # the same grammar, another row: another sample (a run over many rows walks the grammar)
    second, _ = generate(other, "text", only=["joined_commitments", "markup_alternative"])
    assert {p.completion for p in second} != {p.completion for p in first
                                              if p.family in ("joined_commitments",
                                                              "markup_alternative")}
    assert "It is 6, not 5." in by_family["negation"]
    assert "The answer is not 5." in by_family["negation"]
    assert "\\boxeda" * 142857 in by_family["quadratic_time"]
    assert any("\\hbox{}" in c or "\\strut" in c or "[](#)" in c for c in by_family["blank_markup"])


def test_parallel_calls_give_the_same_report(capsys, data) -> None:
    argv = ["--reward", "tests.probe_rewards:substring", "--data", data, "--reference-key",
            "reference", "--family", "hedge", "--family", "control"]  # fmt: skip
    _, one = probe_json(capsys, *argv)
    _, two = probe_json(capsys, *argv, "--workers", "2")
    for report in (one, two):
        for f in report["families"].values():
            f.pop("slowest_s"), f.pop("slowest_variant")
    assert one == two and one["totals"]["false_positives"] > 0


def test_a_broken_reward_is_reported_per_probe_and_never_stops_the_run(capsys, data) -> None:
    start = time.monotonic()
    code = main(["probe", "--reward", "tests.probe_rewards:broken", "--data", data, "--timeout",
                 "1", "--family", "hedge", "--family", "units_sign", "--family", "control"])  # fmt: skip
    took = time.monotonic() - start
    out = capsys.readouterr().out
    assert code == 1
    lines = out.splitlines()
    for what, variant, why in (
        ("ERROR", "hedge/a or w", "exception: ValueError: cannot read alternatives"),
        ("ERROR", "hedge/a and w", "returned nan"),
        ("ERROR", "hedge/a?", "returned a NoneType"),
        ("ERROR", "hedge/a (or w)", "returned a str"),
        ("OVERRUN", "units_sign/thousand", "killed after 1 s"),
    ):
        i = next(i for i, line in enumerate(lines) if line.startswith(f"{what} {variant} "))
        assert why in lines[i + 2], lines[i : i + 3]
    assert lines[-1].endswith("0 false positives, 0 refused controls, 2 overruns, 14 errors")
    assert took < 60  # two hangs cost their deadline (and a worker restart) each, not an hour


def test_a_reward_that_always_hangs_costs_one_deadline_per_probe(capsys, data) -> None:
    start = time.monotonic()
    code, report = probe_json(capsys, "--reward", "tests.probe_rewards:hangs", "--data", data,
                              "--timeout", "0.5", "--family", "control", "--family", "units_sign")  # fmt: skip
    took = time.monotonic() - start
    assert code == 1
    assert report["totals"]["overruns"] == report["totals"]["probes"] == 8
    # 8 deadlines, one warm-up (10 s) and the killed workers' restarts; not a warm-up each
    assert took < 40, took


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "give --reward module:fn"),
        (["gsm8k"], "is probed by `python -m tasks probe gsm8k`"),
        (["gsm8k", "--reward", "m:f"], "`python -m tasks probe gsm8k`"),
        (["--reward", "tests.probe_rewards:exact"], "--reward needs --data"),
        (["--reward", "tests.no_such_module:f", "--data", "x"], "cannot import tests.no_such_module"),
        (["--reward", "tests.probe_rewards:nope", "--data", "x"], "has no 'nope'"),
        (["--reward", "tests.probe_rewards:exact", "--data", "/nonexistent.jsonl"], "/nonexistent"),
    ],
)
def test_usage_errors_exit_2_with_one_line(capsys, argv, message) -> None:
    assert main(["probe", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["no-such-task"], "unknown task 'no-such-task'"),
        ([], "give a task name"),
        (["arithmetic", "--family", "nope"], "unknown probe family nope"),
        (["arithmetic", "--row", "arithmetic/test/nope"], "no row arithmetic/test/nope"),
    ],
)
def test_task_probe_usage_errors_exit_2_with_one_line(capsys, argv, message) -> None:
    assert tasks_main(["probe", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err


def test_a_missing_gold_field_names_the_field_and_line(capsys, data) -> None:
    code = main(["probe", "--reward", "tests.probe_rewards:exact", "--data", data,
                 "--gold-key", "gold"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "line 1" in err and "'gold'" in err


def test_probe_does_not_import_torch_or_tasks_for_a_reward() -> None:
    code = (
        "import sys\nfrom verifiers.cli import main\n"
        "main(['probe', '--list-families'])\n"
        "assert 'torch' not in sys.modules and 'tasks' not in sys.modules, sorted(sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "hedge" in out.stdout


# ----------------------------------------------------------------------------- built-in tasks

GENERATED = ["arithmetic", "countdown"]
DATASETS = ["gsm8k", "math500", "mbpp", "humaneval"]
TEXT_ALWAYS = {"control", "hedge", "two_answers", "nested_box", "early_gold", "padding",
               "invisible", "empty", "markup", "format_only", "megabyte",
               "pathological_latex", "exponents",
               # issue 30's hole classes 1-11 (verifiers/probes/text_grammar.py)
               "negation", "joined_commitments", "or_scripts", "markup_alternative",
               "later_value", "prose_alternative", "comparator", "hidden_commitment",
               "quadratic_time", "blank_markup", "earlier_answer"}  # fmt: skip
CODE_ALWAYS = {"code_control", "always_equal", "exits", "test_reading", "constant", "slow", "huge"}


def _task_param(name: str):  # type: ignore[no-untyped-def]
    no_data = name.split("-")[0] in DATASETS and DATA is None
    return pytest.param(name, marks=[pytest.mark.skipif(no_data, reason="no RLVR_DATA_DIR")])


# HumanEval/32, /38 and /50 call helpers (poly, encode_cyclic, encode_shift) in their tests
HELPER_ROWS = ["--row", "humaneval/test/32", "--row", "humaneval/test/38", "--row",
               "humaneval/test/50", "--family", "helper_redefinition", "--family", "code_control"]
ARGS = {"humaneval-helpers": ["humaneval", *HELPER_ROWS]}


@functools.cache
def _probe_task(name: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RLVR_DATA_DIR": str(DATA or "")}
    args = ARGS.get(name, [name, "-n", "3", "--seed", "0"])
    out = subprocess.run(
        [sys.executable, "-m", "tasks", "probe", *args, "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    return out.returncode, out.stdout if out.returncode in (0, 1) else out.stderr


# One probe run per task, read by one test: CI runs the quick and the slow tests in two
# processes, so a second test of the same run would run it twice.
@pytest.mark.parametrize("name", [_task_param(n)
                                  for n in GENERATED + DATASETS + ["humaneval-helpers"]])
def test_builtin_tasks_pass_their_probe_and_report(name: str) -> None:
    code, out = _probe_task(name)
    assert code in (0, 1), out
    report = json.loads(out)
    failing = [f"{f['kind']} {f['family']}/{f['variant']}" for f in report["findings"]]
    assert report["totals"]["false_positives"] == 0, failing
    assert report["totals"]["overruns"] == 0, failing
    assert report["rows"] == 3, out
    # the references score 1.0 (the audit says so): a refused control would be a probe bug
    assert report["totals"]["false_negatives"] == 0, report["findings"]
    assert report["totals"]["errors"] == 0, report["findings"]
    assert report["totals"]["probes"] == sum(f["probes"] for f in report["families"].values())
    if name == "humaneval-helpers":  # HumanEval/32, /38, /50: tests that call helpers
        assert report["families"]["helper_redefinition"]["probes"] == 6  # two per row
        return
    expected = CODE_ALWAYS if name in ("mbpp", "humaneval") else TEXT_ALWAYS
    assert expected <= set(report["families"]), expected - set(report["families"])
    assert report["family_errors"] == []
    assert code == (0 if report["passed"] else 1)
    for finding in report["findings"]:
        assert isinstance(eval(finding["completion"]), str)  # noqa: S307 - pasteable


# ----------------------------------------------------------------------------- docs/probe.md

DOC = (ROOT / "docs" / "probe.md").read_text()


def _blocks(lang: str) -> list[str]:
    import re

    return re.findall(rf"```{lang}\n(.*?)```", DOC, re.S)


def test_the_doc_family_is_a_dozen_lines_and_its_cli_line_prints_what_it_says(tmp_path) -> None:
    family_code, reward_code = _blocks("python")
    assert len(family_code.strip().splitlines()) <= 14
    (tmp_path / "my_probes.py").write_text(family_code)
    (tmp_path / "my_rewards.py").write_text(reward_code)
    (tmp_path / "rows.jsonl").write_text(_blocks("json")[0])
    line = next(b for b in _blocks("bash") if "--module my_probes" in b).strip()
    command, _, promised = line.partition("# ends with: ")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    out = subprocess.run([sys.executable, *command.split()[1:]], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 1, out.stderr
    assert out.stdout.strip().splitlines()[-1] == promised.strip()
    assert "FALSE POSITIVE unit_swap/#0" in out.stdout  # '12 cm' was paid for


def test_a_data_files_probes_do_not_depend_on_the_folder_it_is_read_from(
    capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Probes are drawn per row id; a path in the id made the draw (and this suite's verdict
    on ``reads_hidden``) change with pytest's temporary folder."""
    reports = []
    for folder in ("a", "b/c"):
        path = tmp_path / folder / "rows.jsonl"
        path.parent.mkdir(parents=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
        reports.append(probe_json(
            capsys, "--reward", "tests.probe_rewards:reads_hidden", "--data", str(path),
            "--reference-key", "reference", "--family", "hidden_commitment",
        ))  # fmt: skip
    monkeypatch.chdir(tmp_path / "a")
    reports.append(probe_json(
        capsys, "--reward", "tests.probe_rewards:reads_hidden", "--data", "./rows.jsonl",
        "--reference-key", "reference", "--family", "hidden_commitment",
    ))  # fmt: skip
    found = [sorted(f["variant"] for f in report["findings"]) for _, report in reports]
    assert found[0] and found[0] == found[1] == found[2]
