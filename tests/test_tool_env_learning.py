"""benchmarks/tool_learning.py: the long-number calculator task, the tool warm start (SFT on
demonstrations played through the env) and the pipeline (warm start -> RL -> evaluation of
the warm start and every checkpoint on the same held-out prompts -> table, curves)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import tool_learning  # noqa: E402

from envs.long_calculator import LongCalculatorEnv, long_arithmetic  # noqa: E402
from policy_opt.models import tool_warm_start as tws  # noqa: E402


def test_conversation_stats_counts_tool_calls_and_turns(tmp_path):
    rows = [{"greedy": {"completion": "#### 3", "correct": True, "conversation": [
                {"role": "assistant", "content": "<tool_call>...</tool_call>"},
                {"role": "tool", "content": "3"}, {"role": "assistant", "content": "#### 3"}]}},
            {"greedy": {"completion": "#### 9", "correct": False}}]
    path = tmp_path / "completions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert tool_learning.conversation_stats(path) == {
        "accuracy": 0.5, "tool_calls": 0.5, "turns": 1.5, "episodes": 2}


def test_long_arithmetic_has_long_operands_and_disjoint_splits():
    task = long_arithmetic()
    train = {r.info["steps"] for r in task.rows("train", limit=300)}
    test = task.rows("test", limit=100)
    assert not train & {r.info["steps"] for r in test}
    for row in test:
        a, b = (int(x) for x in row.info["steps"][0].split("=")[0].replace("*", "+")
                .replace("-", "+").split("+"))
        assert 10_000 <= a < 1_000_000 and 10_000 <= b < 1_000_000


def test_the_calculator_solves_what_the_env_asks():
    env = LongCalculatorEnv(split="test")
    env.reset(seed=3)
    expression = env.row.info["steps"][0].split("=")[0]
    reply, reward, done, _, info = env.step(tws.tool_call_text(expression))
    assert (reward, done, info["tool_calls"]) == (0.0, False, 1)
    assert reply == [{"role": "tool", "content": env.row.answer, "name": "calculator"}]
    _, reward, done, _, info = env.step(f"#### {reply[0]['content']}")
    assert done and info["correct"] and reward == 1.0


@pytest.mark.parametrize("share", [0.0, 0.5, 1.0])
def test_demonstrations_show_the_tool_on_their_share_and_are_all_correct(share):
    convs = tws.demonstrations(tws.ToolRecipe(rows=40, tool_share=share))
    with_tool = [c for c in convs if any(m["role"] == "tool" for m in c)]
    assert len(convs) == 40
    assert len(with_tool) == {0.0: 0, 1.0: 40}.get(share, len(with_tool))
    assert 0 < len(with_tool) < 40 or share in (0.0, 1.0)
    for c in with_tool:
        roles = [m["role"] for m in c]
        assert roles == ["system", "user", "assistant", "tool", "assistant"]
        assert c[2]["content"].startswith('<tool_call>{"name": "calculator"')
        assert c[4]["content"] == f"#### {c[3]['content']}"


def test_the_loss_is_on_assistant_turns_only():
    from policy_opt.models import default_tokenizer

    tok = default_tokenizer()
    conv = tws.demonstrations(tws.ToolRecipe(rows=4, tool_share=1.0))[0]
    ids, labels = tws.encode_conversation(tok, conv)
    full = tok.apply_chat_template(conv, tokenize=False)
    assert ids == tok.encode(full, add_special_tokens=False)  # token-exact, as in rollouts
    assert ids.count(tok.eos_token_id) == 5  # every turn closed by one <|im_end|> id
    learnt = tok.decode([i for i, lab in zip(ids, labels) if lab != -100])
    assert learnt == f"{conv[2]['content']}<|im_end|>{conv[4]['content']}<|im_end|>"


def test_the_warm_start_is_cached_by_its_recipe(tiny_model, tmp_path):
    recipe = tws.ToolRecipe(base=str(tiny_model), rows=4, steps=2, batch_size=2, threads=1)
    out = tws.build(recipe, tmp_path / "w", verbose=False)
    summary = json.loads((out / "tool_warm_start.json").read_text())
    assert summary["demonstrations"] == 4 and summary["recipe_hash"] == tws.recipe_hash(recipe)
    mtime = (out / "model.safetensors").stat().st_mtime_ns
    assert tws.build(recipe, out, verbose=False) == out  # cached: not trained again
    assert (out / "model.safetensors").stat().st_mtime_ns == mtime
    assert tws.recipe_hash(recipe) != tws.recipe_hash(tws.ToolRecipe(base=str(tiny_model),
                                                                     rows=4, steps=3))
    with pytest.raises(ValueError):
        tws.ToolRecipe(tool_share=1.5)


def test_the_benchmark_reports_each_algorithm_against_the_warm_start(tiny_model, tmp_path):
    out = tmp_path / "tl"
    assert tool_learning.main([
        "--algos", "gspo", "--minutes", "5", "--steps", "2", "--save-every", "1",
        "--out", str(out), "--model", str(tiny_model), "--warm-start", str(tmp_path / "warm"),
        "--warm-rows", "4", "--warm-steps", "1", "--warm-batch-size", "2",
        "--eval-prompts", "2", "--threads", "1", "--max-new-tokens", "4", "--max-turns", "2",
        "--prompts-per-step", "2", "--group-size", "2", "--env-workers", "1",
        "--env", "envs.long_calculator:LongAdditionEnv"]) == 0
    summary = json.loads((out / "tool_learning.json").read_text())
    assert summary["warm_start"]["recipe"]["env"] == "envs.long_calculator:LongAdditionEnv"
    prompts = (out / "eval" / "warm_start" / "completions.jsonl").read_text()
    assert all(len(n) == 5 for n in re.findall(r"What is (\d+)\+(\d+)", prompts)[0])
    table = summary["table"]
    assert set(table) == {"warm start", "gspo"}
    assert all(row["episodes"] == 2 and 1 <= row["turns"] <= 2 for row in table.values())
    assert [p["step"] for p in summary["curves"]["gspo"]] == [0, 1, 2]
    assert summary["curves"]["gspo"][0] == {"step": 0, **{k: v for k, v in
                                                           table["warm start"].items()
                                                           if k not in ("steps",
                                                                        "train_minutes")}}
    assert table["gspo"]["steps"] == 2 and table["gspo"]["train_minutes"] > 0
    assert (out / "tool_learning.png").is_file()
    assert "| warm start | 0 |" in (out / "tool_learning.md").read_text()


def test_spaced_keeps_the_final_checkpoint():
    assert tool_learning.spaced(list(range(1, 13)), 3) == [4, 8, 12]
    assert tool_learning.spaced([1, 2], 3) == [1, 2]
    assert tool_learning.spaced([1, 2, 3], 0) == [1, 2, 3]


# --- benchmarks/guess_learning.py (a multi-turn env without a tool) and tool_copy_loss.py ---

import guess_learning  # noqa: E402
import tool_copy_loss  # noqa: E402


def test_small_guess_env_is_a_valid_gymnasium_env_binary_search_always_wins():
    from gymnasium.utils.env_checker import check_env

    from envs.guess_number import optimal_turns

    env = guess_learning.SmallGuessEnv()
    check_env(env, skip_render_check=True)
    assert (env.low, env.high, env.max_turns) == (1, 8, 4) == (1, 8, optimal_turns(1, 8))
    for secret in range(1, 9):  # binary search finds every secret within the 4 guesses
        env.reset(seed=0, options={"secret": secret})
        low, high = 1, 8
        for _ in range(4):
            guess = (low + high) // 2
            reply, reward, terminated, truncated, _ = env.step(str(guess))
            if terminated:
                break
            low, high = (guess + 1, high) if reply[0]["content"] == "Higher." else (low, guess - 1)
        assert terminated and reward == 1.0, secret


def test_guess_benchmark_tabulates_and_plots_each_run(tiny_model, tmp_path):
    out = tmp_path / "gl"
    assert guess_learning.main([
        "--algos", "gspo", "--minutes", "5", "--steps", "2", "--out", str(out),
        "--model", str(tiny_model), "--eval-prompts", "4", "--eval-every", "1", "--threads", "1",
        "--prompts-per-step", "2", "--group-size", "2"]) == 0
    evals = [json.loads(line) for line in (out / "gspo" / "metrics.jsonl").read_text().splitlines()
             if json.loads(line).get("kind") == "eval"]
    assert [e["step"] for e in evals] == [0, 1, 2]
    row = (out / "guess_learning.md").read_text().splitlines()[-1]
    assert row.startswith("| gspo | 2 |")
    assert f"| {100 * evals[0]['accuracy']:.1f}% | {100 * evals[-1]['accuracy']:.1f}% |" in row
    assert (out / "guess_learning.png").stat().st_size > 0
    # --no-train re-reads the same runs and writes the same table.
    table = (out / "guess_learning.md").read_text()
    (out / "guess_learning.md").unlink()
    assert guess_learning.main(["--no-train", "--algos", "gspo", "--out", str(out)]) == 0
    assert (out / "guess_learning.md").read_text() == table


def test_copy_loss_measures_exactly_the_copied_digits(tiny_model, monkeypatch):
    import torch

    from policy_opt.models import policy

    real_load = policy.load_policy

    digits = torch.tensor([ord(c) for c in "0123456789"])  # byte tokens

    class Oracle(torch.nn.Module):
        """Knows every next token; on a digit, only that a digit comes (uniform over ten)."""

        def forward(self, input_ids):
            logits = torch.full((*input_ids.shape, 260), -1e4)
            logits[0, :-1].scatter_(1, input_ids[0, 1:, None], 0.0)
            is_digit = torch.isin(input_ids[0, 1:], digits)
            logits[0, :-1][is_digit] = -1e4
            logits[0, :-1][is_digit.nonzero()[:, 0][:, None], digits] = 0.0
            return type("Out", (), {"logits": logits})()

    losses = tool_copy_loss.copy_losses(str(tiny_model), rows=3)
    assert losses["expression"] > 1.0 and losses["result"] > 1.0   # an untrained model
    monkeypatch.setattr(policy, "load_policy",
                        lambda path, verbose=False: (Oracle(), real_load(path, verbose=False)[1]))
    losses = tool_copy_loss.copy_losses(str(tiny_model), rows=3)
    # Exactly the uniform baseline: every measured position is a digit, and only digits count.
    assert losses == pytest.approx({"expression": tool_copy_loss.UNIFORM,
                                    "result": tool_copy_loss.UNIFORM}, abs=1e-4)
    at = tool_copy_loss.copy_losses(str(tiny_model), rows=3, by_position=True)
    assert 0 in at["expression"] and -1 in at["result"] and min(at["result"]) < -4
    assert all(v == pytest.approx(tool_copy_loss.UNIFORM, abs=1e-4)
               for by in at.values() for v in by.values())


def test_the_new_benchmarks_reject_bad_input_with_one_line(tmp_path, capsys):
    for main, argv in ((tool_copy_loss.main, ["--model", str(tmp_path / "none")]),
                       (tool_copy_loss.main, ["--rows", "0"]),
                       (tool_copy_loss.main, ["--env", "nosuch:Env", "--rows", "1"]),
                       (guess_learning.main, ["--no-train", "--out", str(tmp_path / "none")]),
                       (tool_learning.main, ["--start-model", str(tmp_path / "none"),
                                             "--out", str(tmp_path / "tl")]),
                       (tool_learning.main, ["--model", str(tmp_path / "none"), "--out", str(tmp_path / "tl")]),
                       (tool_learning.main, ["--tool-share", "3", "--out", str(tmp_path / "tl")]),
                       (tws.main, ["--base", str(tmp_path / "none"), "--out", str(tmp_path / "w")])):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert "error:" in err and "Traceback" not in err


def test_long_addition_env_asks_sums_of_two_five_digit_numbers():
    from envs.long_calculator import LongAdditionEnv

    env = LongAdditionEnv(split="test")
    for seed in range(5):
        env.reset(seed=seed)
        a, b = env.row.info["steps"][0].split("=")[0].split("+")
        assert len(a) == len(b) == 5 and int(env.row.answer) == int(a) + int(b)


def test_tool_copy_sft_prints_the_copy_ratio_as_it_trains(capsys, tmp_path):
    import tool_copy_sft

    assert tool_copy_sft.main(["--env", "envs.long_calculator:LongAdditionEnv", "--steps", "2",
                               "--batch-size", "2", "--rows", "6", "--eval-rows", "2",
                               "--every", "1", "--threads", "1",
                               "--out", str(tmp_path / "m")]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("step")]
    assert [int(x.split()[1]) for x in lines] == [0, 1, 2]
    assert all(float(x.split()[3]) > 0 and float(x.split()[5]) > 0 for x in lines)
    assert (tmp_path / "m" / "config.json").is_file()
    with pytest.raises(SystemExit):
        tool_copy_sft.main(["--steps", "0"])
    with pytest.raises(SystemExit):  # an unknown env: argparse's one-line error, no traceback
        tool_copy_sft.main(["--env", "envs.long_calculator:Nope", "--steps", "1"])


def test_the_benchmark_runs_rl_from_a_given_start_model(tiny_model, tmp_path):
    """``--start-model``: RL from a model as it is (``tool_copy_sft.py``'s output), no warm
    start built; the table's first row is that model."""
    out = tmp_path / "tl"
    assert tool_learning.main([
        "--algos", "grpo", "--minutes", "5", "--steps", "1", "--save-every", "1",
        "--out", str(out), "--start-model", str(tiny_model), "--eval-prompts", "2",
        "--threads", "1", "--max-new-tokens", "4", "--max-turns", "2", "--prompts-per-step", "2",
        "--group-size", "2", "--env-workers", "1"]) == 0
    summary = json.loads((out / "tool_learning.json").read_text())
    assert summary["warm_start"] == {"path": str(tiny_model), "recipe": None}
    assert set(summary["table"]) == {"warm start", "grpo"}
    assert not any(p.name.startswith("tool-warm-start") for p in tmp_path.iterdir())
