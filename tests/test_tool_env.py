"""Function-calling tools (``envs.tools``) and ``ToolEnv`` (``envs.tool_env``): schemas from
functions, the default template's tools section, Hermes parsing, validation, limits, the
shipped envs, and every kind of bad input (issue #34, parts 1, 2 and 5)."""

from __future__ import annotations

import json
import os
import pickle
import re
import time
from pathlib import Path

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import envs
from envs.base import EpisodeOver
from envs.tool_env import (
    CalculatorToolEnv,
    SearchToolEnv,
    ToolEnv,
    calculator,
    lookup_corpus,
    python_tool,
)
from envs.tools import Tool, ToolBox, ToolCall, parse_tool_calls, tools_text

ROOT = Path(__file__).resolve().parents[1]
# The default model's template before the tools section, byte for byte: the shipped model was
# trained on its output, which must not change when no tools are passed.
OLD_TEMPLATE = ("{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\n' + "
                "message['content'] + '<|im_end|>' }}{% endfor %}{% if add_generation_prompt %}"
                "{{ '<|im_start|>assistant\n' }}{% endif %}")


def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: the first
        b: the second
    """
    return a + b


def hang(seconds: float) -> str:
    """Sleep.

    Args:
        seconds: how long
    """
    time.sleep(seconds)
    return "woke"


def huge(n: int) -> str:
    """A long text.

    Args:
        n: its length
    """
    return "x" * n


def boom(why: str) -> str:
    """Raise.

    Args:
        why: the message
    """
    raise RuntimeError(why)


def pid() -> int:
    """The process id the tool runs in."""
    return os.getpid()


def call(name: str, **arguments) -> str:
    return f'<tool_call>{json.dumps({"name": name, "arguments": arguments})}</tool_call>'


def default_model_tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(ROOT / "policy_opt" / "default_model")


# ----------------------------------------------------------------------- part 1: tools


def test_schema_is_transformers_get_json_schema():
    from transformers.utils import get_json_schema

    assert Tool(add).schema == get_json_schema(add)
    assert Tool(add, name="plus").name == "plus"


CONVERSATIONS = [
    [{"role": "user", "content": "hi"}],
    [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "2+2?"},
     {"role": "assistant", "content": "4"}],
    [{"role": "user", "content": "q"}, {"role": "assistant", "content": "<calculator>1</calculator>"},
     {"role": "tool", "content": "1", "name": "calculator"}, {"role": "user", "content": "ü ✓"}],
]


@pytest.mark.parametrize("messages", CONVERSATIONS)
@pytest.mark.parametrize("generation_prompt", [False, True])
def test_default_template_is_byte_identical_without_tools(messages, generation_prompt):
    tok = default_model_tokenizer()
    assert tok.chat_template != OLD_TEMPLATE  # the tools section is there
    for tools in (None, []):
        assert tok.apply_chat_template(messages, tools=tools, tokenize=False,
                                       add_generation_prompt=generation_prompt) == \
            tok.apply_chat_template(messages, tokenize=False, chat_template=OLD_TEMPLATE,
                                    add_generation_prompt=generation_prompt)


def test_default_template_renders_tools_and_tool_calls():
    tok = default_model_tokenizer()
    schemas = ToolBox([add, calculator]).schemas
    messages = [{"role": "system", "content": "S"}, {"role": "user", "content": "q"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"type": "function", "function": {"name": "add", "arguments": {"a": 1, "b": 2}}},
                    {"type": "function", "function": {"name": "add", "arguments": '{"a": 3, "b": 4}'}}]},
                {"role": "tool", "content": "3", "name": "add"}]
    text = tok.apply_chat_template(messages, tools=schemas, tokenize=False)
    assert text.startswith("<|im_start|>system\nS\n\n" + tools_text(schemas) + "<|im_end|>")
    assert text.count("<|im_start|>system") == 1
    # what the template writes for the calls parses back to the same calls
    assistant = text.split("<|im_start|>assistant\n")[1]
    assert parse_tool_calls(assistant) == [ToolCall("add", {"a": 1, "b": 2}),
                                      ToolCall("add", {"a": 3, "b": 4})]
    # The env's system-prompt form is the same text the template writes for tools=.
    env = ToolEnv("arithmetic", tools=[add, calculator])
    prompt, _ = env.reset(seed=0)
    with_tools = tok.apply_chat_template(prompt[1:], tools=env.tool_schemas, tokenize=False)
    assert tok.apply_chat_template(prompt, tokenize=False) == with_tools


def test_parse_several_calls_and_arguments_as_json_strings():
    text = ('think <tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call> and '
            '<tool_call>\n{"name": "add", "arguments": "{\\"a\\": 5, \\"b\\": 6}"}\n</tool_call>')
    assert parse_tool_calls(text) == [ToolCall("add", {"a": 1, "b": 2}),
                                      ToolCall("add", {"a": 5, "b": 6})]


def test_results_are_tool_messages_with_loss_mask_zero_in_the_token_exact_bridge():
    from test_rollout import ScriptedEngine

    from policy_opt.rollout.episodes import collect_episodes

    tok = default_model_tokenizer()

    def policy(text: str) -> str:
        if "<|im_start|>tool\n" not in text:
            a, b = re.findall(r"What is (\d+)\+(\d+)", text)[-1]
            return call("add", a=int(a), b=int(b))
        return "#### " + re.findall(r"<\|im_start\|>tool\n(\d+)<\|im_end\|>", text)[-1]

    engine = ScriptedEngine(tok, policy)
    episodes = collect_episodes(lambda: ToolEnv("arithmetic", tools=[add],
                                                task_kwargs={"level": 1}),
                                engine, tok, [0, 1], 1, max_new_tokens=200, max_turns=4)
    for ep in episodes:
        assert ep.reward == pytest.approx(1.0) and ep.info["tool_calls"] == 1
        env_text = tok.decode([t for t, m in zip(ep.completion_ids, ep.completion_mask) if not m])
        model_text = tok.decode([t for t, m in zip(ep.completion_ids, ep.completion_mask) if m])
        assert "<|im_start|>tool\n" in env_text and "<tool_call>" in model_text
        assert "<|im_start|>tool" not in model_text


def test_validation_errors_are_messages():
    box = ToolBox([add])
    assert box.run(ToolCall("add", {"a": 1})) == "Error: add: missing required argument 'b'"
    assert box.run(ToolCall("add", {"a": 1, "b": 2, "c": 3})).startswith(
        "Error: add: unknown argument 'c'")
    assert box.run(ToolCall("add", {"a": True, "b": 2})).startswith(
        "Error: add: argument 'a' must be integer")
    assert box.run(ToolCall("add", {"a": 1, "b": 2})) == "3"


def test_isolated_tools_run_in_another_process_and_unpicklable_ones_in_a_thread():
    box = ToolBox([pid, Tool(lambda: os.getpid(), name="local", schema={
        "function": {"name": "local", "parameters": {"type": "object", "properties": {}}}})])
    assert box.tools["pid"].isolate and not box.tools["local"].isolate
    assert int(box.run(ToolCall("pid", {}))) != os.getpid()
    assert int(box.run(ToolCall("local", {}))) == os.getpid()


@pytest.mark.parametrize("isolate", [True, False])
def test_a_hanging_tool_is_abandoned_at_its_deadline(isolate):
    box = ToolBox([Tool(hang, timeout=1.0, isolate=isolate)])
    box.run(ToolCall("hang", {"seconds": 0}))  # warm the worker: the deadline is per call
    start = time.monotonic()
    assert box.run(ToolCall("hang", {"seconds": 60})) == "Error: hang did not finish within 1 s"
    assert time.monotonic() - start < 5


@pytest.mark.parametrize("isolate", [True, False])
def test_a_raising_tool_gives_an_error_message(isolate):
    result = ToolBox([Tool(boom, isolate=isolate)]).run(ToolCall("boom", {"why": "nope"}))
    assert result.startswith("Error: boom raised") and "nope" in result


def test_the_python_tool_runs_in_the_sandbox_not_in_this_process():
    box = ToolBox([python_tool()])
    pid = int(box.run(ToolCall("python", {"code": "import os\nprint(os.getpid())"})))
    assert pid != os.getpid()
    # a process-wide effect in the tool's code does not reach the trainer
    box.run(ToolCall("python", {"code": "import os\nos.environ['H8_LEAK'] = '1'\nprint(1)"}))
    assert "H8_LEAK" not in os.environ
    assert "ZeroDivisionError" in box.run(ToolCall("python", {"code": "print(1/0)"}))
    start = time.monotonic()
    assert box.run(ToolCall("python", {"code": "while True:\n    pass"})) == (
        "Error: the program did not finish within 5 s")
    assert time.monotonic() - start < 15


# ----------------------------------------------------------------------- part 2: envs


@pytest.mark.parametrize("name", ["tool-calculator", "tool-python", "tool-search"])
def test_shipped_envs_pass_check_env_pickle_and_run_async(name):
    env = envs.make(name).unwrapped
    check_env(env, skip_render_check=True)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.reset(seed=3)[0] == env.reset(seed=3)[0]
    vec = gymnasium.make_vec(envs.env_id(name), 2, vectorization_mode="async")
    try:
        obs, _ = vec.reset(seed=0)
        tool = env.toolbox.tools and next(iter(env.toolbox.tools))
        args = {"calculator": {"expression": "2*3"}, "python": {"code": "print(6)"},
                "search": {"query": "vault"}}[tool]
        obs, reward, terminated, truncated, info = vec.step([call(tool, **args)] * 2)
        assert not terminated.any() and obs[0][0]["role"] == "tool"
        assert not obs[0][0]["content"].startswith("Error")
    finally:
        vec.close()


def test_calculator_env_answers_with_the_tool():
    env = CalculatorToolEnv(task_kwargs={"level": 4})
    prompt, _ = env.reset(seed=1)
    expression = re.search(r"What is (.+)\?", prompt[-1]["content"]).group(1)
    reply, reward, terminated, _, info = env.step(call("calculator", expression=expression))
    assert (reward, terminated, reply[0]["name"]) == (0.0, False, "calculator")
    _, reward, terminated, _, info = env.step(f"#### {reply[0]['content']}")
    assert terminated and info["correct"] and info["tool_calls"] == 1


def test_python_tool_on_a_math_task():
    env = envs.make("tool-python", task_kwargs={"level": 4}).unwrapped
    prompt, _ = env.reset(seed=2)
    expression = re.search(r"What is (.+)\?", prompt[-1]["content"]).group(1)
    reply, *_ = env.step(call("python", code=f"print({expression})"))
    _, reward, _, _, info = env.step(f"#### {reply[0]['content'].strip()}")
    assert info["correct"] and reward == pytest.approx(1.0)


def test_search_tool_over_a_corpus_the_test_makes():
    documents = [f"The vault test-{i} opens with code {40000 + 7 * i}." for i in range(40)]
    env = SearchToolEnv(documents)
    prompt, _ = env.reset(seed=0)
    vault = re.search(r"vault (\S+)\?", prompt[-1]["content"]).group(1)
    code = str(40000 + 7 * int(vault.split("-")[1]))
    assert code not in json.dumps(prompt)  # the answer is only in the corpus
    reply, *_ = env.step(call("search", query=f"vault {vault}"))
    assert f"vault {vault} opens with code {code}." in reply[0]["content"]
    _, reward, *_ = env.step(f"#### {code}")
    assert reward == pytest.approx(1.0)
    assert lookup_corpus(0) == lookup_corpus(0) != lookup_corpus(1)


def test_tool_bonus_is_off_by_default_and_never_paid_for_calls_alone():
    for bonus, wrong, right in ((0.0, 0.1 / 1.1, 1.0), (0.5, 0.1 / 1.1, 1.5)):
        env = CalculatorToolEnv(tool_bonus=bonus, task_kwargs={"level": 1})
        prompt, _ = env.reset(seed=0)
        gold = env.row.answer
        env.step(call("calculator", expression="1+1"))
        assert env.step(f"#### {int(gold) + 1}")[1] == pytest.approx(wrong)
        env.reset(seed=0)
        env.step(call("calculator", expression="1+1"))
        assert env.step(f"#### {gold}")[1] == pytest.approx(right)


def test_the_probe_cannot_farm_the_tool_bonus():
    from envs.probe import probe

    report = probe("tool-calculator", rows=2, seed=0, env_kwargs={"tool_bonus": 1.0})
    assert report.passed, [(f.family, f.kind, f.detail) for f in report.findings]


# ----------------------------------------------------------------------- part 5: bad input


def step_once(action: str, **kwargs):
    env = ToolEnv("arithmetic", tools=[add, Tool(hang, timeout=1.0), huge], **kwargs)
    env.reset(seed=0)
    return env, env.step(action)


def test_malformed_json():
    _, (reply, reward, terminated, _, _) = step_once("<tool_call>{'name': add}</tool_call>")
    assert reply[0]["content"].startswith("Error: invalid JSON in tool call")
    assert (reward, terminated) == (0.0, False)
    _, (reply, *_) = step_once("<tool_call>" + "[" * 50_000 + "</tool_call>")
    assert reply[0]["content"] == "Error: invalid JSON in tool call: nested too deeply"
    _, (reply, *_) = step_once('<tool_call>{"name": "add", "arguments": "{a: 1"}</tool_call>')
    assert reply[0]["content"].startswith("Error: invalid JSON in the arguments string")
    _, (reply, *_) = step_once('<tool_call>{"name": "add"')
    assert reply[0]["content"] == "Error: <tool_call> is never closed with </tool_call>"


def test_unknown_tool_name():
    _, (reply, *_) = step_once(call("rm_rf", path="/"))
    assert reply[0]["content"] == "Error: unknown tool 'rm_rf' (available: add, hang, huge)"


def test_wrong_argument_types():
    _, (reply, *_) = step_once(call("add", a="1", b=[2]))
    assert reply[0]["content"] == "Error: add: argument 'a' must be integer, got '1'"


def test_a_call_that_never_ends():
    start = time.monotonic()
    _, (reply, reward, terminated, truncated, _) = step_once(call("hang", seconds=3600))
    assert reply[0]["content"] == "Error: hang did not finish within 1 s"
    assert time.monotonic() - start < 15  # a cold worker's start-up, then the 1 s deadline


def test_a_10_mb_tool_result_is_truncated_with_a_marker():
    _, (reply, *_) = step_once(call("huge", n=10_000_000), max_result_chars=1000)
    content = reply[0]["content"]
    assert content.startswith("x" * 1000) and len(content) < 1100
    assert content.endswith("[truncated: 9999000 of 10000000 characters not shown]")


def test_1000_calls_in_one_turn_end_the_episode_with_a_reason():
    env, (reply, reward, terminated, _, info) = step_once(call("add", a=1, b=2) * 1000)
    assert (reply, reward, terminated, info["reason"]) == ([], 0.0, True, "max_calls")
    assert info["tool_calls"] == 1000
    # within the episode budget, the calls past the per-turn limit get one message
    env, (reply, reward, terminated, _, info) = step_once(call("add", a=1, b=2) * 1000,
                                                         max_calls=5000)
    assert len(reply) == 9 and reply[-1]["content"] == (
        "Error: at most 8 tool calls per turn; 992 more calls were dropped")
    assert env.observation_space.contains(reply)


def test_a_tool_call_after_the_final_answer():
    env, (_, reward, terminated, _, _) = step_once("#### 5")
    assert terminated
    with pytest.raises(EpisodeOver):
        env.step(call("add", a=1, b=2))
    # in the same turn: the text is a tool call, so the answer is not scored
    _, (reply, reward, terminated, _, _) = step_once("#### 14\n" + call("add", a=1, b=2))
    assert (reply[0]["content"], reward, terminated) == ("3", 0.0, False)


def test_calls_over_the_episode_budget_across_turns():
    env = ToolEnv("arithmetic", tools=[add], max_calls=3, max_turns=10)
    env.reset(seed=0)
    env.step(call("add", a=1, b=2) * 2)
    _, reward, terminated, _, info = env.step(call("add", a=1, b=2) * 2)
    assert (reward, terminated, info["reason"], info["tool_calls"]) == (0.0, True, "max_calls", 4)


def test_bad_constructor_arguments_fail_at_construction():
    with pytest.raises(ValueError, match="two tools are named 'add'"):
        ToolEnv("arithmetic", tools=[add, add])
    with pytest.raises(ValueError, match="tool_bonus"):
        ToolEnv("arithmetic", tools=[add], tool_bonus=5)
    with pytest.raises(TypeError, match="tools must be a list"):
        ToolEnv("arithmetic", tools=add)
