"""A failing probe ends with a one-screen summary (the failing families with their counts,
the worst findings with their completions), whatever hundreds of lines come before it; a
passing probe keeps its short table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifiers.cli import main

SCREEN = 24  # lines

ROWS = [
    {"answer": "18", "reference": "9+9=18\n#### 18"},
    {"answer": "1250", "reference": "1000+250=1250\n#### 1250"},
]


@pytest.fixture
def data(tmp_path: Path) -> str:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    return str(path)


def _probe(capsys, data: str, reward: str) -> tuple[int, list[str]]:
    code = main(["probe", "--reward", f"tests.probe_rewards:{reward}", "--data", data,
                 "--reference-key", "reference"])
    return code, capsys.readouterr().out.rstrip("\n").splitlines()


def test_a_failing_probe_ends_with_a_one_screen_summary(capsys, data) -> None:
    code, lines = _probe(capsys, data, "substring")
    assert code == 1 and len(lines) > 2 * SCREEN  # the case the summary is for
    start = max(i for i, line in enumerate(lines) if line.startswith("--- summary: "))
    tail = lines[start:]
    assert len(tail) <= SCREEN
    assert tail[-1].startswith("probe tests.probe_rewards:substring: FAIL:")
    # counts per failing family, and they add up to the final line's total
    counts, more = {}, False
    for line in tail[2:]:
        if line.startswith("---"):
            break
        if line.strip().startswith("... and "):
            more = True
            continue
        name, fp, fn, err, over = line.split()
        counts[name] = (int(fp), int(fn), int(err), int(over))
    # a substring match pays hedges: that family fails, shown unless ten larger ones come first
    assert 1 <= len(counts) <= 10 and ("hedge" in counts or (more and len(counts) == 10))
    assert all(c[0] > 0 or c[1] > 0 or c[2] > 0 or c[3] > 0 for c in counts.values())
    total_fp = int(tail[-1].split("; ")[1].split()[0])
    shown_fp = sum(c[0] for c in counts.values())
    assert shown_fp < total_fp if more else shown_fp == total_fp
    # most findings first
    totals = [sum(c) for c in counts.values()]
    assert totals == sorted(totals, reverse=True)
    # the worst findings: a paid attack each, with a completion to paste, several families
    worst = tail[tail.index(next(t for t in tail if t.startswith("--- worst"))) + 1:-1]
    assert 1 <= len(worst) <= 5
    assert all(w.strip().startswith("false positive ") and ": '" in w for w in worst)
    assert len({w.split()[2].split("/")[0] for w in worst}) == len(worst)


def test_a_passing_probe_has_no_summary_block(capsys, data) -> None:
    code, lines = _probe(capsys, data, "answer_line")
    assert code == 0
    assert not any(line.startswith("--- summary") for line in lines)
    assert lines[-1].startswith("probe tests.probe_rewards:answer_line: PASS")
