"""benchmarks/tool_learning.py (smoke): trains on tool-calculator, evaluates the warm start
and each run on the same held-out prompts, and writes the table and the chart."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import tool_learning  # noqa: E402


def test_conversation_stats_counts_tool_calls_and_turns(tmp_path):
    rows = [{"greedy": {"completion": "#### 3", "correct": True, "conversation": [
                {"role": "assistant", "content": "<tool_call>...</tool_call>"},
                {"role": "tool", "content": "3"}, {"role": "assistant", "content": "#### 3"}]}},
            {"greedy": {"completion": "#### 9", "correct": False}}]
    path = tmp_path / "completions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert tool_learning.conversation_stats(path) == {
        "accuracy": 0.5, "tool_calls": 0.5, "turns": 1.5, "episodes": 2}


def test_the_benchmark_reports_each_algorithm_against_the_warm_start(tiny_model, tmp_path):
    out = tmp_path / "tl"
    assert tool_learning.main([
        "--algos", "gspo", "--minutes", "5", "--steps", "1", "--out", str(out),
        "--model", str(tiny_model), "--eval-prompts", "2", "--threads", "1",
        "--max-new-tokens", "4", "--max-turns", "2", "--prompts-per-step", "2",
        "--group-size", "2", "--env-workers", "1"]) == 0
    table = json.loads((out / "tool_learning.json").read_text())
    assert set(table) == {"warm start", "gspo"}
    assert all(row["episodes"] == 2 and 1 <= row["turns"] <= 2 for row in table.values())
    assert (out / "tool_learning.png").is_file()
    assert "| warm start |" in (out / "tool_learning.md").read_text()
