"""Code envs (single-turn mbpp/humaneval and code with feedback): these run the sandbox."""

from __future__ import annotations

import re
import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from test_envs import DATA
from test_rollout import ScriptedEngine, assert_token_exact, emitted_per_episode

from envs.code_feedback import CodeFeedbackEnv
from policy_opt.models import default_tokenizer
from policy_opt.rollout.episodes import collect_episodes

pytestmark = pytest.mark.skipif(
    DATA is None, reason="RLVR_DATA_DIR is unset and ../shared/data does not exist")


@pytest.fixture(autouse=True)
def _data_dir(monkeypatch):
    if DATA:
        monkeypatch.setenv("RLVR_DATA_DIR", DATA)


@pytest.mark.parametrize("name", ["mbpp", "humaneval", "code-feedback"])
def test_check_env_passes_for_code_envs(name):
    env = gymnasium.make(f"rlvr/{name}-v0").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    env.close()


WRONG = "```python\ndef first_repeated_char(s):\n    return None\n```"


def reference_for(seed: int) -> tuple[str, str]:
    env = CodeFeedbackEnv("mbpp", split="train")
    env.reset(seed=seed)
    return env.row.id, env.task.reference_completion(env.row)


def test_feedback_then_fix_through_the_bridge():
    tok = default_tokenizer()
    row_id, fixed = reference_for(3)

    def policy(text: str) -> str:
        return fixed if "Your code failed" in text else "```python\ndef nothing():\n    pass\n```"

    engine = ScriptedEngine(tok, policy)
    episodes = collect_episodes(lambda: CodeFeedbackEnv("mbpp", split="train"), engine, tok,
                                [3], 2, max_new_tokens=2048, max_turns=3, workers=2)
    for ep, emitted in zip(episodes, emitted_per_episode(engine, episodes)):
        assert (ep.reward, ep.info["turns"], ep.info["correct"]) == (1.0, 2, True)
        assert ep.info["row_id"] == row_id and ep.info["passed"][0] == 0
        assert ep.info["rubric"]["accuracy"] == 1.0
        assert_token_exact(ep, tok, emitted)
        assert ep.info["transcript"] == tok.apply_chat_template(ep.info["messages"],
                                                                tokenize=False)
        feedback = ep.info["messages"][-2]
        assert feedback["role"] == "user"
        assert re.match(r"Your code failed (\d+) of \1 tests:\nTest 1: assert ", feedback["content"])


def test_all_attempts_fail_scores_the_last_attempt():
    env = CodeFeedbackEnv("mbpp", split="train", max_attempts=2)
    env.reset(seed=0, options={"row_id": "mbpp/train/602"})
    reply, reward, terminated, truncated, info = env.step("no code at all")
    assert not terminated and "attempts left" in reply[0]["content"]
    # Half right: returns the right answer on some tests only.
    reply, reward, terminated, truncated, info = env.step(WRONG)
    assert (reply, terminated, truncated, info["correct"]) == ([], True, False, False)
    assert info["attempts"] == 2 and info["passed"][1] == 1  # the `== None` test passes
    # all-or-nothing: passing 1 of 3 asserts earns no accuracy, only the format share
    assert info["rubric"]["accuracy"] == 0.0
    assert 0.0 < reward < 0.2


def test_discount_per_attempt():
    env = CodeFeedbackEnv("mbpp", split="train", discount=0.5)
    env.reset(seed=0, options={"row_id": "mbpp/train/602"})
    fixed = env.task.reference_completion(env.row)
    env.step(WRONG)
    env.step(WRONG)
    _, reward, terminated, _, info = env.step(fixed)
    assert terminated and info["correct"] and reward == pytest.approx(0.25)


def test_feedback_quoting_a_lone_surrogate_stays_in_the_observation_space():
    env = CodeFeedbackEnv("mbpp", split="train")
    env.reset(seed=0, options={"row_id": "mbpp/train/602"})
    # The candidate's exception message reaches the feedback verbatim: '\ud800' made the
    # observation unencodable (outside ChatMessages, and fatal to a tokenizer).
    reply, *_ = env.step("```python\ndef first_repeated_char(s):\n    raise ValueError('\\ud800')\n```")
    assert reply in env.observation_space
    assert "error: ValueError \\ud800" in reply[0]["content"]
