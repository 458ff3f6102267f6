"""A ``ToolEnv`` trained from TRL's ``GRPOTrainer`` through ``environment_factory``
(``envs.tool_trl``; issue #34, part 3). A real trainer (TRL 1.16, tiny local Llama, CPU)
takes a step; its tool methods, schemas and reward path are checked on the same trainer."""

from __future__ import annotations

from pathlib import Path

import pytest

import envs
from envs.tool_env import CalculatorToolEnv
from envs.tool_trl import prepare_tokenizer, trl_dataset, trl_environment_factory, trl_reward

torch = pytest.importorskip("torch")
trl = pytest.importorskip("trl")
datasets = pytest.importorskip("datasets")

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = (ROOT / "policy_opt" / "default_model" / "chat_template.jinja").read_text()


def make_env():
    return CalculatorToolEnv(task_kwargs={"level": 4}, max_calls=3)


@pytest.fixture(scope="module")
def grpo(tiny_model, tmp_path_factory):
    from transformers import AutoTokenizer, LlamaForCausalLM

    torch.manual_seed(0)
    tok = AutoTokenizer.from_pretrained(tiny_model)
    tok.chat_template = TEMPLATE  # the default model's template, with its tools section
    args = trl.GRPOConfig(
        output_dir=str(tmp_path_factory.mktemp("grpo-tools")), per_device_train_batch_size=4,
        num_generations=2, max_completion_length=8, max_steps=1, report_to=[], use_cpu=True,
        logging_steps=1, save_strategy="no", seed=0, max_tool_calling_iterations=2,
    )
    return trl.GRPOTrainer(
        model=LlamaForCausalLM.from_pretrained(tiny_model), reward_funcs=[trl_reward], args=args,
        train_dataset=datasets.Dataset.from_list(trl_dataset(make_env, 8)),
        processing_class=prepare_tokenizer(tok),
        environment_factory=trl_environment_factory(make_env),
    )


@pytest.mark.filterwarnings("ignore")
def test_grpo_trainer_trains_a_step_on_the_tool_env_and_its_reward(grpo):
    grpo.train()
    logged = {k: v for row in grpo.state.log_history for k, v in row.items()}
    assert "rewards/trl_reward/mean" in logged
    assert 0.0 <= logged["rewards/trl_reward/mean"] <= 1.0
    # the rollouts reset real envs on the dataset's rows
    assert grpo.environments and all(e._started for e in grpo.environments)
    rows = {r["row_id"] for r in trl_dataset(make_env, 8)}
    assert {e._env.row.id for e in grpo.environments} <= rows


def test_trl_sees_our_tools_with_our_schemas(grpo):
    from transformers.utils import get_json_schema

    [method] = grpo.tools
    assert method.__name__ == "calculator"
    assert get_json_schema(method) == make_env().tool_schemas[0]
    # TRL's prompt rendering (tools=its methods) writes the tools section our env writes
    env = make_env()
    prompt, _ = env.reset(seed=0)
    tok = grpo.processing_class
    assert tok.apply_chat_template(prompt[1:], tools=grpo.tools, tokenize=False,
                                   add_generation_prompt=True) == \
        tok.apply_chat_template(prompt, tokenize=False, add_generation_prompt=True)


def test_tool_calls_from_trl_run_through_the_toolbox_and_its_limits(grpo):
    environment = trl_environment_factory(make_env)()
    environment.reset(row_id=trl_dataset(make_env, 1)[0]["row_id"])
    assert environment.calculator(expression="6*7") == "42"
    assert environment.calculator(expression=7).startswith(
        "Error: calculator: argument 'expression' must be string")
    environment.calculator(expression="1")
    assert environment.calculator(expression="1") == "Error: at most 3 tool calls per episode"
    assert (environment._env.tool_calls, environment._env.tool_errors) == (4, 2)


def test_trl_reward_scores_the_final_answer_and_not_a_dangling_call():
    factory = trl_environment_factory(make_env)
    a, b, c = factory(), factory(), factory()
    row_id = trl_dataset(make_env, 1)[0]["row_id"]
    for environment in (a, b, c):
        environment.reset(row_id=row_id)
    gold = a._env.row.answer
    completions = [
        [{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {
            "name": "calculator", "arguments": {"expression": "1"}}}]},
         {"role": "tool", "name": "calculator", "content": "1"},
         {"role": "assistant", "content": f"#### {gold}"}],
        [{"role": "assistant", "content": f"#### {int(gold) + 1}"}],
        [{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {
            "name": "calculator", "arguments": {"expression": "1"}}}]}],
    ]
    assert trl_reward(completions, environments=[a, b, c]) == pytest.approx([1.0, 0.1 / 1.1, 0.0])
    never_reset = factory()
    assert trl_reward([[{"role": "assistant", "content": "#### 1"}]],
                      environments=[never_reset]) == [None]
    with pytest.raises(ValueError, match="environment_factory"):
        trl_reward(completions)


def test_the_factory_refuses_what_is_not_a_tool_env():
    with pytest.raises(TypeError, match="ToolEnv"):
        trl_environment_factory(lambda: envs.make("guess-number").unwrapped)
