"""benchmarks/slip.py classifies completions as right, steps-right and slips."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import slip  # noqa: E402

import tasks  # noqa: E402
from policy_opt.models.warm_start import slipped  # noqa: E402
from policy_opt.rollout import engine  # noqa: E402


def test_measure_counts_slips_and_right_answers(tiny_model, monkeypatch):
    rows = tasks.get("arithmetic").rows("test", seed=7, limit=40)
    three = [r for r in rows if len(r.info["steps"]) == 2]
    assert 0 < len(three) < len(rows)

    def scripted(row) -> str:  # two-operand problems right, three-operand ones slipped
        steps = list(row.info["steps"])
        return slipped(steps) if len(steps) == 2 else "\n".join([*steps, f"#### {row.answer}"])

    class Scripted:
        def __init__(self, model, tok, **kw):
            self.tok = tok

        def generate(self, prompts, **kw):
            n = len(prompts) // len(rows)
            return [SimpleNamespace(token_ids=self.tok.encode(scripted(rows[j // n]),
                                                             add_special_tokens=False))
                    for j in range(len(prompts))]

    monkeypatch.setattr(engine, "TransformersEngine", Scripted)
    out = slip.measure(str(tiny_model), rows, k=2, threads=1)
    visible = sum(r.info["steps"][0].rsplit("=", 1)[1] != r.answer for r in three) / len(three)
    for stats in out.values():
        assert stats["2-operand acc"] == 1.0
        assert stats["3-operand steps right"] == 1.0
        assert stats["3-operand slips"] == visible > 0.5
        assert abs(stats["3-operand acc"] - (1 - visible)) < 1e-12


@pytest.mark.parametrize("flag", ["--rows", "--k", "--threads"])
def test_bad_counts_are_rejected_naming_the_flag(flag, capsys):
    with pytest.raises(SystemExit) as exit_:
        slip.main([flag, "0"])
    assert exit_.value.code == 2
    assert f"{flag} must be >= 1" in capsys.readouterr().err
