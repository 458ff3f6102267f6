"""Text envs: spaces, check_env on every registered env, seeding, and scripted episodes."""

from __future__ import annotations

import os
import re
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import envs
from envs.base import ChatMessages, EpisodeOver, UnicodeText
from envs.guess_number import GuessNumberEnv, optimal_turns
from envs.tool_use import (
    CalculatorError,
    ToolUseEnv,
    calculate,
    parse_tool_calls,
    run_tool_call,
)
from tasks import Row

REPO = Path(__file__).resolve().parents[1]
DATA = os.environ.get("RLVR_DATA_DIR") or (
    str(REPO.parent / "shared" / "data") if (REPO.parent / "shared" / "data").is_dir() else None)


@pytest.fixture(autouse=True)
def _data_dir(monkeypatch):
    if DATA:
        monkeypatch.setenv("RLVR_DATA_DIR", DATA)


# ----------------------------------------------------------------------------- a fake task


@dataclass
class FakeScore:
    total: float | None
    breakdown: dict = field(default_factory=dict)
    reasons: dict = field(default_factory=dict)
    errors: tuple = ()


class SumTask:
    """Three rows 'What is a + b?'; the answer must end with '#### a+b'."""

    name = "sum"
    splits = ("train", "test")

    def rows(self, split="train", *, seed=0, limit=None, path=None):
        rows = [Row(f"sum/{split}/{i}", ({"role": "user", "content": f"What is {i} + {i + 10}?"},),
                    str(2 * i + 10)) for i in range(3)]
        return rows[:limit]

    def score(self, row, completion):
        ok = completion.strip().endswith(f"#### {row.answer}")
        return FakeScore(float(ok), {"accuracy": float(ok)}, {"accuracy": "ok" if ok else "wrong"})


# ----------------------------------------------------------------------------- spaces


def test_unicode_text_holds_ordinary_prompts_that_gymnasium_text_rejects():
    prompt = "Natalia sold clips to 48 of her friends in April. How many? Größe ≥ 5 ✓ 你好"
    assert prompt not in gymnasium.spaces.Text(1000)
    space = UnicodeText(1000)
    assert prompt in space
    assert "\ud800" not in space  # a lone surrogate cannot be encoded, nor tokenised
    assert b"bytes" not in space and None not in space
    assert "x" * 1001 not in space


def test_spaces_sample_is_seeded_and_inside_the_space():
    a, b = UnicodeText(50, seed=7), UnicodeText(50, seed=7)
    samples = [a.sample() for _ in range(20)]
    assert samples == [b.sample() for _ in range(20)]
    assert all(s in a for s in samples)
    assert any(ord(c) > 127 for s in samples for c in s)  # multi-byte text gets exercised
    m1, m2 = ChatMessages(seed=3), ChatMessages(seed=3)
    msgs = [m1.sample() for _ in range(10)]
    assert msgs == [m2.sample() for _ in range(10)]
    assert all(m in m1 for m in msgs)


def test_chat_messages_contains_checks_roles_and_fields():
    space = ChatMessages(max_messages=2)
    assert space.contains([])
    assert space.contains([{"role": "user", "content": "hi"}, {"role": "assistant", "content": ""}])
    assert not space.contains([{"role": "user"}])
    assert not space.contains([{"role": "user", "content": 3}])
    assert not space.contains([{"role": "wizard", "content": "x"}])
    assert not space.contains([{"role": "user", "content": "a"}] * 3)
    assert not space.contains("user: hi")


# ----------------------------------------------------------------------------- registry


def test_every_builtin_task_and_multi_turn_env_is_registered():
    # Built-in tasks only: tasks other tests register after `import envs` are reachable
    # through envs.make (which re-registers) but not yet in the registry.
    for name in ("gsm8k", "math500", "mbpp", "humaneval", "arithmetic", "countdown"):
        assert f"rlvr/{name}-v0" in gymnasium.registry
    for name in ("guess-number", "calculator", "code-feedback"):
        assert f"rlvr/{name}-v0" in gymnasium.registry


def test_make_accepts_alias_id_and_module_class():
    assert envs.make("guess-number").spec.id == "rlvr/guess-number-v0"
    assert gymnasium.make("rlvr/guess-number-v0", high=7).unwrapped.high == 7
    env = envs.make("envs.guess_number:GuessNumberEnv", high=5)
    assert isinstance(env, GuessNumberEnv) and env.high == 5
    with pytest.raises(ValueError, match="unknown env 'nope'"):
        envs.make("nope")
    with pytest.raises(ImportError, match="no_such_module"):
        envs.make("no_such_module:Env")


def _check(env_name: str, **kwargs) -> None:
    env = gymnasium.make(f"rlvr/{env_name}-v0", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning is a failure too
        check_env(env.unwrapped)
    env.close()


MULTI = ["guess-number", "calculator"]


@pytest.mark.parametrize("name", MULTI)
def test_check_env_passes_for_multi_turn_envs(name):
    _check(name)


def _task_names():
    import tasks

    return [n for n in tasks.names() if n not in ("mbpp", "humaneval")]  # code: test_envs_code


@pytest.mark.parametrize("name", _task_names())
def test_check_env_passes_for_every_task_env(name):
    if DATA is None:
        pytest.skip("RLVR_DATA_DIR is unset and ../shared/data does not exist")
    _check(name)


def test_check_env_passes_for_a_fake_task_tool_env():
    if "rlvr-test/sum-calculator-v0" not in gymnasium.registry:
        gymnasium.register("rlvr-test/sum-calculator-v0",
                           entry_point=lambda **kw: ToolUseEnv(SumTask(), **kw))
    env = gymnasium.make("rlvr-test/sum-calculator-v0").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


# ----------------------------------------------------------------------------- seeding


@pytest.mark.parametrize("make", [lambda: GuessNumberEnv(), lambda: ToolUseEnv(SumTask())])
def test_same_seed_same_episode(make):
    a, b = make(), make()
    first = [a.reset(seed=s)[0] for s in range(20)]
    assert first == [b.reset(seed=s)[0] for s in range(20)]
    # An unseeded reset continues the seeded stream: the same sequence on both copies.
    a.reset(seed=5), b.reset(seed=5)
    assert [a.reset()[0] for _ in range(5)] == [b.reset()[0] for _ in range(5)]


def test_guess_number_seeds_spread_and_splits_differ():
    train, test = GuessNumberEnv(split="train"), GuessNumberEnv(split="test")
    secrets = []
    for s in range(50):
        train.reset(seed=s)
        test.reset(seed=s)
        secrets.append((train.secret, test.secret))
    assert len({a for a, _ in secrets}) > 20
    assert sum(a != b for a, b in secrets) > 40


# ----------------------------------------------------------------------------- guess-the-number


def binary_search(env: GuessNumberEnv, *, seed: int) -> tuple[float, int, bool, bool]:
    env.reset(seed=seed)
    low, high = env.low, env.high
    while True:
        guess = (low + high) // 2
        reply, reward, terminated, truncated, info = env.step(f"My guess is {guess}.")
        if terminated or truncated:
            return reward, info["turn"], terminated, truncated
        if reply[0]["content"] == "Higher.":
            low = guess + 1
        else:
            assert reply[0]["content"] == "Lower."
            high = guess - 1


def test_binary_search_always_wins_within_the_optimal_number_of_turns():
    env = GuessNumberEnv(low=1, high=100, max_turns=7)
    turns = []
    for seed in range(60):
        reward, n, terminated, truncated = binary_search(env, seed=seed)
        assert (reward, terminated, truncated) == (1.0, True, False)
        turns.append(n)
    assert max(turns) <= optimal_turns(1, 100) == 7
    assert min(turns) < max(turns)


def test_guess_number_truncates_after_max_turns_and_discount_rewards_speed():
    env = GuessNumberEnv(max_turns=3)
    env.reset(seed=0, options={"secret": 77})
    results = [env.step("1") for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]  # truncated on the 3rd
    assert results[-1][1] == 0.0 and results[-1][2] is False and results[-1][4]["correct"] is False
    with pytest.raises(EpisodeOver):
        env.step("2")
    fast = GuessNumberEnv(discount=0.5)
    fast.reset(seed=0, options={"secret": 10})
    fast.step("5")
    assert fast.step("10")[1] == 0.5


def test_guess_number_tolerates_garbage_and_rejects_non_text():
    env = GuessNumberEnv()
    env.reset(seed=1, options={"secret": 3})
    reply, reward, terminated, truncated, _ = env.step("🤔 no idea")
    assert "no integer" in reply[0]["content"] and not terminated and not truncated
    assert "outside" in env.step("1000")[0][0]["content"]
    with pytest.raises(TypeError, match="action must be the model's text"):
        env.step(42)
    with pytest.raises(ValueError, match="secret"):
        env.reset(options={"secret": 500})


# ----------------------------------------------------------------------------- calculator tool


def test_calculator_is_safe_and_exact():
    assert calculate("(3 + 4) * 2 - 10 / 4") == "11.5"
    assert calculate("2^10") == "1024" and calculate("1,234 + 1") == "1235"
    for bad in ("__import__('os').system('echo hi')", "open('x')", "[1] * 10", "9**9**9",
                "(10**4000)**10000", "1/0", "", "lambda: 1", "x"):
        with pytest.raises(CalculatorError):
            calculate(bad)


def test_tool_calls_tag_and_json_and_malformed():
    calls = parse_tool_calls('a <calculator>1+1</calculator> b <tool_call>{"name": "calculator", '
                             '"arguments": {"expression": "2*3"}}</tool_call>')
    assert [(c.name, c.arguments, c.error) for c in calls] == [
        ("calculator", "1+1", None), ("calculator", "2*3", None)]
    assert parse_tool_calls("<tool_call>{not json</tool_call>")[0].error.startswith("invalid JSON")
    assert "never closed" in parse_tool_calls("<calculator>1+1")[0].error
    assert parse_tool_calls('<tool_call>{"name": "calculator"}</tool_call>')[0].error


def test_tool_env_scripted_episode():
    env = ToolUseEnv(SumTask(), max_turns=4)
    prompt, _ = env.reset(seed=0, options={"row": 2})
    assert prompt[0]["role"] == "system" and "calculator" in prompt[0]["content"]
    assert prompt[1]["content"] == "What is 2 + 12?"
    reply, reward, terminated, truncated, info = env.step("<calculator>2 + 12</calculator>")
    assert reply == [{"role": "tool", "content": "14"}] and (reward, terminated) == (0.0, False)
    reply, *_ = env.step('<tool_call>{"name": "calculator", "arguments": </tool_call>')
    assert reply[0]["content"].startswith("Error: invalid JSON")
    reply, *_ = env.step("<calculator>import os</calculator><calculator>1/0</calculator>")
    assert [m["content"] for m in reply] == [
        "Error: cannot parse 'import os': invalid syntax", "Error: division by zero"]
    reply, reward, terminated, truncated, info = env.step("The sum is 14.\n#### 14")
    assert (reply, reward, terminated, truncated) == ([], 1.0, True, False)
    assert info["correct"] and info["rubric"] == {"accuracy": 1.0} and info["turn"] == 4
    assert (info["tool_calls"], info["tool_errors"]) == (4, 3)


def test_tool_env_truncates_a_model_that_only_calls_tools():
    env = ToolUseEnv(SumTask(), max_turns=2)
    env.reset(seed=0)
    assert env.step("<calculator>1</calculator>")[3] is False
    _, reward, terminated, truncated, info = env.step("<calculator>1</calculator>")
    assert (reward, terminated, truncated, info["correct"]) == (0.0, False, True, False)


def test_tool_call_flood_gets_one_error_message_and_stays_in_the_observation_space():
    from gymnasium.utils.passive_env_checker import env_step_passive_checker

    env = ToolUseEnv(SumTask(), max_turns=3)
    env.reset(seed=0, options={"row": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the passive checker warns on an observation outside
        reply, reward, terminated, truncated, info = env_step_passive_checker(
            env, "<calculator>1</calculator>" * 100)
    assert reply in env.observation_space and len(reply) == 5
    assert [m["content"] for m in reply[:4]] == ["1"] * 4
    assert reply[4]["content"] == "Error: at most 4 tool calls per turn; 96 more calls were dropped"
    assert (info["tool_calls"], info["tool_errors"]) == (100, 96)
    reply, *_ = env.step("<calculator>1</calculator>" * 5)
    assert reply[-1]["content"].endswith("1 more call was dropped")
    with pytest.raises(ValueError, match="max_calls_per_turn must be <= 63"):
        ToolUseEnv(SumTask(), max_calls_per_turn=64)


def test_episode_ends_truncated_when_the_conversation_exceeds_max_chars():
    env = GuessNumberEnv(max_chars=300)
    env.reset(seed=0, options={"secret": 50})
    _, _, terminated, truncated, _ = env.step("1 " * 200)
    assert truncated and not terminated


def test_render_ansi_shows_the_transcript():
    env = GuessNumberEnv(render_mode="ansi")
    env.reset(seed=0, options={"secret": 60})
    env.step("50")
    text = env.render()
    assert "[assistant] 50" in text and "[user] Higher." in text


# ----------------------------------------------------------------------------- single-turn


def test_single_turn_env_scores_with_the_task_rubric():
    env = envs.make("arithmetic")
    prompt, _ = env.reset(seed=3)
    inner = env.unwrapped
    assert prompt == [dict(m) for m in inner.row.prompt]
    reply, reward, terminated, truncated, info = env.step(
        inner.task.reference_completion(inner.row))
    assert (reply, reward, terminated, truncated) == ([], 1.0, True, False)
    assert info["correct"] and info["rubric"]["accuracy"] == 1.0 and info["row_id"] == inner.row.id
    env.reset(seed=3)
    _, reward, _, _, info = env.step("I do not know.")
    assert reward < 1.0 and not info["correct"] and info["reasons"]["accuracy"]


def test_single_turn_defaults_to_the_first_split_without_train():
    if DATA is None:
        pytest.skip("RLVR_DATA_DIR is unset and ../shared/data does not exist")
    assert envs.make("math500").unwrapped.split == "test"
    with pytest.raises(ValueError, match="no split 'train'"):
        envs.make("math500", split="train")


class CountingTask(SumTask):
    loads = 0

    def rows(self, *args, **kwargs):
        CountingTask.loads += 1
        return super().rows(*args, **kwargs)


def test_rows_of_a_task_object_are_loaded_once_for_many_envs():
    task = CountingTask()
    for seed in range(5):
        envs.SingleTurnEnv(task).reset(seed=seed)
    assert CountingTask.loads == 1
    envs.SingleTurnEnv(CountingTask()).reset(seed=0)  # another object: its own rows
    assert CountingTask.loads == 2


# ----------------------------------------------------------------------------- misuse and limits


def test_step_without_a_running_episode_names_the_cause():
    env = ToolUseEnv(SumTask())
    with pytest.raises(EpisodeOver, match=r"before reset\(\)"):
        env.step("1")
    assert issubclass(EpisodeOver, gymnasium.error.ResetNeeded)  # as OrderEnforcing raises
    env.reset(seed=0)
    # A reset that raises must not leave the env playing the row it had before (or None:
    # this used to die with AttributeError: 'NoneType' object has no attribute 'answer').
    with pytest.raises(ValueError, match="options\\['row'\\]"):
        env.reset(options={"row": 99})
    with pytest.raises(EpisodeOver, match=r"last reset\(\) raised"):
        env.step("#### 10")
    env.reset(seed=0, options={"row": 0})
    assert env.step("#### 10")[1] == 1.0


def test_guess_number_does_not_play_the_old_secret_after_a_failed_reset():
    env = GuessNumberEnv()
    env.reset(seed=0, options={"secret": 5})
    with pytest.raises(ValueError, match="secret"):
        env.reset(options={"secret": 500})
    with pytest.raises(EpisodeOver):
        env.step("5")  # used to win the previous episode: reward 1.0


def test_non_text_actions_raise_a_type_error_with_a_hint():
    env = GuessNumberEnv()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="got list; pass the assistant message's content"):
        env.step([{"role": "assistant", "content": "50"}])
    with pytest.raises(TypeError, match="got bytes; decode"):
        env.step(b"50")
    with pytest.raises(TypeError, match="got NoneType$"):
        env.step(None)
    assert env.turn == 0 and env.step("50")[4]["turn"] == 1  # the rejected calls did not count


@pytest.mark.parametrize("kwargs, error, match", [
    ({"max_turns": 0}, ValueError, "max_turns must be >= 1, got 0"),
    ({"max_turns": -3}, ValueError, "max_turns must be >= 1, got -3"),
    ({"max_turns": 2.5}, TypeError, "max_turns must be an int, got 2.5"),
    ({"max_turns": "3"}, TypeError, "max_turns must be an int, got '3'"),
    ({"max_turns": float("nan")}, TypeError, "max_turns must be an int"),  # never truncated
    ({"max_turns": True}, TypeError, "max_turns must be an int, got True"),
    ({"max_chars": float("inf")}, TypeError, "max_chars must be an int"),
    ({"low": 1.5}, TypeError, "low must be an int"),
    ({"high": "x"}, TypeError, "high must be an int, got 'x'"),
    ({"high": 10**30}, ValueError, "high must be <= 9223372036854775807"),
    ({"discount": "0.5"}, TypeError, "discount must be a number"),
    ({"discount": float("nan")}, ValueError, "discount must be in"),
    ({"split": ["train"]}, ValueError, "split must be one of"),
])
def test_guess_number_constructor_rejects_bad_arguments_by_name(kwargs, error, match):
    with pytest.raises(error, match=re.escape(match)):
        GuessNumberEnv(**kwargs)


def test_numpy_ints_are_accepted_where_ints_are():
    env = GuessNumberEnv(low=np.int64(1), high=np.int64(10), max_turns=np.int32(3))
    assert (env.low, env.high, env.max_turns) == (1, 10, 3)
    assert type(env.max_turns) is int
    env.reset(seed=0, options={"secret": np.int64(4)})
    assert env.secret == 4
    tool = ToolUseEnv(SumTask(), max_calls_per_turn=np.int16(2))
    assert tool.reset(seed=0, options={"row": np.int64(2)})[0][1]["content"] == "What is 2 + 12?"


def test_tool_env_constructor_rejects_bad_arguments_by_name():
    with pytest.raises(TypeError, match="max_calls_per_turn must be an int, got 2.5"):
        ToolUseEnv(SumTask(), max_calls_per_turn=2.5)
    with pytest.raises(ValueError, match="max_turns must be >= 1, got 0"):
        ToolUseEnv(SumTask(), max_turns=0)


def test_reset_rejects_unknown_options_and_bool_rows():
    env = ToolUseEnv(SumTask())
    with pytest.raises(ValueError, match="unknown reset option 'rowid' for ToolUseEnv; accepted "
                                         "options: 'row', 'row_id'"):
        env.reset(options={"rowid": 1})
    with pytest.raises(ValueError, match="got True"):
        env.reset(options={"row": True})  # was row 1
    with pytest.raises(ValueError, match="not both"):
        env.reset(options={"row": 0, "row_id": "sum/train/1"})
    with pytest.raises(ValueError, match="unknown reset option 'row' for GuessNumberEnv"):
        GuessNumberEnv().reset(options={"row": 1})
    with pytest.raises(ValueError, match="got True"):
        GuessNumberEnv().reset(options={"secret": True})
    env.reset(seed=0)
    with pytest.raises(TypeError, match="options must be a dict or None, got str"):
        env.reset(options="row=1")
    with pytest.raises(EpisodeOver, match=r"last reset\(\) raised"):
        env.step("#### 10")  # any reset that raised ends the episode it interrupted


class ScoreCountingTask(SumTask):
    def __init__(self):
        self.scored = 0

    def score(self, row, completion):
        self.scored += 1
        return super().score(row, completion)


def test_an_action_past_max_chars_is_truncated_without_being_evaluated():
    task = ScoreCountingTask()
    env = ToolUseEnv(task, max_chars=1000)
    env.reset(seed=0, options={"row": 0})
    # Right answer, but 1 MB long: the tool env used to terminate and score it (reward 1).
    reply, reward, terminated, truncated, info = env.step("x" * 1_000_000 + "\n#### 10")
    assert (reply, reward, terminated, truncated) == ([], 0.0, False, True)
    assert info["truncated_by"] == "max_chars" and info["row_id"] == "sum/train/0"
    assert task.scored == 0
    single = envs.SingleTurnEnv(task, max_chars=1000)
    single.reset(seed=0, options={"row": 0})
    _, reward, terminated, truncated, info = single.step(" " * 2000 + "#### 10")
    assert (reward, terminated, truncated, info["row_id"]) == (0.0, False, True, "sum/train/0")
    assert task.scored == 0
    guess = GuessNumberEnv(max_chars=300)
    guess.reset(seed=0, options={"secret": 7})
    _, reward, terminated, truncated, info = guess.step(" " * 400 + "7")
    assert (reward, terminated, truncated, info["truncated_by"]) == (0.0, False, True, "max_chars")


def test_truncation_by_turns_is_labelled():
    env = GuessNumberEnv(max_turns=1)
    env.reset(seed=0, options={"secret": 7})
    info = env.step("3")[4]
    assert (info["truncated"], info["truncated_by"], info["reason"]) == (True, "max_turns",
                                                                        "truncated")


def test_guess_number_reads_huge_and_zero_padded_numbers_without_crashing():
    env = GuessNumberEnv(max_chars=200_000)
    env.reset(seed=0, options={"secret": 3})
    # int() refuses more than 4,300 digits: both of these raised ValueError.
    reply, reward, terminated, truncated, info = env.step("9" * 100_000)
    assert reply == [{"role": "user", "content": "Your number has 100000 digits; it is outside "
                                                 "1..100."}]
    assert (reward, terminated, truncated, info["guess"]) == (0.0, False, False, None)
    assert info["reason"] == "guess_too_long"
    _, reward, terminated, _, info = env.step("0" * 5000 + "3")
    assert (reward, terminated, info["guess"]) == (1.0, True, 3)
    env.reset(seed=0, options={"secret": 3})
    assert env.step("-" + "0" * 30 + "5")[0][0]["content"] == "-5 is outside 1..100."


# ----------------------------------------------------------------------------- calculator limits


def _timed(fn, *args):
    # CPU time of this process: a guard against a quadratic scan (minutes), not a speed
    # target, and not fooled by another job sharing the cores
    start = time.process_time()
    result = fn(*args)
    return result, time.process_time() - start


def test_calculator_round_with_a_huge_negative_ndigits_answers_at_once():
    # round(int, -n) computes 10**n: n = 10**18 never finished.
    for expression, expected in [("round(1, -10**18)", "0"), ("round(1, -(10**100))", "0"),
                                 ("round(123456, -3)", "123000"), ("round(2.567, 2)", "2.57"),
                                 ("round(1.5, 10**100)", "1.5"), ("round(7)", "7")]:
        result, seconds = _timed(calculate, expression)
        assert (result, seconds < 1.0) == (expected, True), expression


def test_calculator_never_returns_inf_and_reports_math_errors():
    for bad, reason in [("1e400", "not a finite number"), ("-1e400", "not a finite number"),
                        ("min(1, 1e400)", "not a finite number"),
                        ("log(2, 1)", "log: division by zero")]:  # was an uncaught ZeroDivisionError
        with pytest.raises(CalculatorError, match=reason):
            calculate(bad)
    assert calculate("1e300 * 1") == "1e+300"


def test_tool_call_parsing_is_linear_in_the_text():
    # The old regex rescanned to the end from every unclosed tag: 100,000 of them hung.
    for tag in ("<calculator>", "<tool_call>"):
        calls, seconds = _timed(parse_tool_calls, tag * 100_000)
        assert seconds < 1.0
        assert [c.error for c in calls] == [f"{tag} is never closed with {tag[0]}/{tag[1:]}"]
    calls, seconds = _timed(parse_tool_calls, "<calculator>1</calculator>" * 40_000)
    assert len(calls) == 40_000 and seconds < 1.0
    # Same pairing as the regex: shortest body from the left, the earlier tag first.
    calls = parse_tool_calls("<calculator><calculator>1</calculator></calculator> <calculator>2")
    assert [c.arguments for c in calls] == ["<calculator>1"]
    # Tags of the two kinds are found independently and ordered by where they start.
    assert [c.arguments for c in parse_tool_calls(
        '<tool_call>{"name": "calculator", "arguments": {"expression": "<calculator>3'
        '</calculator>"}}</tool_call>')] == ["<calculator>3</calculator>", "3"]


@pytest.mark.parametrize("body, error", [
    ("[" * 100_000, "invalid JSON in tool call: nested too deeply"),  # was RecursionError
    ('{"a":' * 20_000 + "1" + "}" * 20_000, "invalid JSON in tool call: nested too deeply"),
    ("9" * 5000, "invalid JSON in tool call: Exceeds the limit (4300 digits)"),  # was ValueError
    ('{"name": "calculator", "arguments": {"expression": "1"}, "n": ' + "9" * 5000 + "}",
     "invalid JSON in tool call: Exceeds the limit"),
], ids=["deep-array", "deep-object", "huge-int", "huge-int-field"])
def test_pathological_json_tool_calls_are_errors_not_exceptions(body, error):
    [call] = parse_tool_calls(f"<tool_call>{body}</tool_call>")
    assert call.error.startswith(error)
    env = ToolUseEnv(SumTask(), max_chars=1_000_000)
    env.reset(seed=0)
    reply, reward, terminated, truncated, info = env.step(f"<tool_call>{body}</tool_call>")
    assert reply == [{"role": "tool", "content": f"Error: {call.error}"}]
    assert (reward, terminated, truncated, info["tool_errors"]) == (0.0, False, False, 1)


def test_double_encoded_arguments_that_are_not_json_are_the_expression():
    deep = "[" * 10_000  # json.loads of this string raised RecursionError
    [call] = parse_tool_calls('<tool_call>{"name": "calculator", "arguments": "' + deep
                              + '"}</tool_call>')
    assert (call.arguments, call.error) == (deep, None)
    assert run_tool_call(call) == "Error: the expression is longer than 500 characters"
    [call] = parse_tool_calls('<tool_call>{"name": "calculator", "arguments": '
                              '"{\\"expression\\": \\"6*7\\"}"}</tool_call>')
    assert run_tool_call(call) == "42"


def test_unknown_tool_names_are_quoted_shortened():
    [call] = parse_tool_calls('<tool_call>{"name": "' + "x" * 1000 + '", "arguments": '
                              '{"expression": "1"}}</tool_call>')
    reply = run_tool_call(call)
    assert reply.startswith("Error: unknown tool 'xxx") and len(reply) < 120


# ----------------------------------------------------------------------------- code feedback args


@pytest.mark.parametrize("kwargs, error, match", [
    ({"max_attempts": 0}, ValueError, "max_attempts must be >= 1, got 0"),  # said max_turns
    ({"max_attempts": float("nan")}, TypeError, "max_attempts must be an int"),  # was accepted
    ({"max_attempts": "2"}, TypeError, "max_attempts must be an int, got '2'"),
    ({"max_shown": 0}, ValueError, "max_shown must be >= 1, got 0"),
    ({"discount": 0}, ValueError, "discount must be in (0, 1], got 0"),
    ({"timeout": 0}, ValueError, "timeout must be None or seconds in (0, 3600], got 0"),
    ({"timeout": -1}, ValueError, "timeout must be None or seconds"),  # raised only in step()
    ({"timeout": float("nan")}, ValueError, "timeout must be None or seconds"),
    ({"timeout": "5"}, ValueError, "got '5'"),
])
def test_code_feedback_constructor_rejects_bad_arguments_by_name(kwargs, error, match):
    from envs.code_feedback import CodeFeedbackEnv

    with pytest.raises(error, match=re.escape(match)):
        CodeFeedbackEnv(SumTask(), **kwargs)
    assert CodeFeedbackEnv(SumTask(), timeout=2, max_attempts=np.int64(2)).timeout == 2.0


def test_make_reports_malformed_entry_points_and_long_names_in_one_line():
    for name in (":", "envs:", ":GuessNumberEnv"):  # ":" raised ValueError("Empty module name")
        with pytest.raises(ValueError, match="expected 'package.module:EnvClass' or 'module:task' with both parts"):
            envs.make(name)
    with pytest.raises(ValueError) as err:
        envs.make("x" * 10_000)
    assert len(str(err.value)) < 400 and "xxx..." in str(err.value)
    with pytest.raises(ValueError, match="env name must be a non-empty string, got None"):
        envs.make(None)


class EchoEnv(envs.TextEnv):
    """Replies with the model's text, as a feedback env quoting the model's output does."""

    def _start(self, options):
        return [{"role": "user", "content": "say \ud800 something"}]

    def _respond(self, text):
        return [{"role": "user", "content": f"you said: {text}"}], 0.0, False, {}


def test_observations_with_lone_surrogates_are_made_encodable():
    env = EchoEnv(max_turns=3)
    prompt, _ = env.reset(seed=0)
    assert prompt == [{"role": "user", "content": "say \\ud800 something"}]
    reply = env.step("x\udc80y")[0]
    assert reply == [{"role": "user", "content": "you said: x\\udc80y"}]
    assert prompt in env.observation_space and reply in env.observation_space
    assert env.messages[1] == {"role": "assistant", "content": "x\udc80y"}  # the action as given


@pytest.mark.parametrize("kwargs, error, match", [
    ({"limit": 2.5}, TypeError, "limit must be an int, got 2.5"),  # was an islice error at reset
    ({"limit": "x"}, TypeError, "limit must be an int, got 'x'"),
    ({"limit": 0}, ValueError, "limit must be >= 1, got 0"),
    ({"task_seed": 2.5}, TypeError, "task_seed must be an int, got 2.5"),
    ({"path": 123}, TypeError,
     "path must be a file or folder (str or os.PathLike), a datasets object, or None, got 123"),
    ({"task_kwargs": "x"}, TypeError, "task_kwargs must be a mapping or None, got 'x'"),
])
def test_task_env_arguments_are_checked_before_the_rows_load(kwargs, error, match):
    with pytest.raises(error, match=re.escape(match)):
        envs.SingleTurnEnv("arithmetic", **kwargs)
    with pytest.raises(error, match=re.escape(match)):
        ToolUseEnv("arithmetic", **kwargs)


def test_the_base_class_says_which_hook_is_missing():
    env = envs.make("envs.base:TextEnv")
    with pytest.raises(NotImplementedError, match=r"TextEnv must implement _start\(options\)"):
        env.reset(seed=0)
    with pytest.raises(EpisodeOver):
        env.step("x")
