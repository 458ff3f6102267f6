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
        # The example the prompt shows is quoted; the other scored asserts never are.
        assert re.match(r"Your code failed (\d+) of \1 tests\.\nExample 1 from the problem "
                        r"failed: assert ", feedback["content"])
        env = CodeFeedbackEnv("mbpp", split="train")
        env.reset(options={"row_id": row_id})
        for hidden in env.row.info["tests"][1:]:
            assert hidden["assert_code"] not in feedback["content"]


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


# ------------------------------------------------------------- feedback from public tests only

STUB = "```python\ndef _stub():\n    pass\n```"


def _sample(task: str, split: str, n: int, seed: int) -> list[int]:
    import random

    env = CodeFeedbackEnv(task, split=split)
    return random.Random(seed).sample(range(len(env.rows)), n)


def _play(env: CodeFeedbackEnv, index: int, family: str) -> tuple[float, list[str], list[str]]:
    """The final reward of a probe family, the env's feedback messages and the actions."""
    from envs.probe import FAMILIES, Play

    obs, _ = env.reset(options={"row": index})
    messages, feedback, actions, done, turn, reward = list(obs), [], [], False, 0, 0.0
    while not done:
        turn += 1
        actions.append(FAMILIES[family].policy(Play(messages, turn, env.max_turns)))
        obs, reward, terminated, truncated, _ = env.step(actions[-1])
        messages += obs
        feedback += [m["content"] for m in obs]
        done = terminated or truncated
    return reward, feedback, actions


@pytest.mark.parametrize("task,split", [("mbpp", "train"), ("mbpp", "test"), ("humaneval", "test")])
def test_a_lookup_table_of_all_feedback_earns_at_most_the_format_share(task, split):
    # Before the fix the feedback quoted every failing assert: this policy scored 1.0 on 20 of
    # 20 MBPP rows. benchmarks/code_feedback_lookup.py plays it on every row.
    env = CodeFeedbackEnv(task, split=split)
    for index in _sample(task, split, 3, seed=31):
        env.reset(options={"row": index})
        share = env.task.score(env.row, STUB).total
        assert 0 < share < 0.2
        for family in ("lookup", "echo"):
            reward, feedback, _ = _play(env, index, family)
            assert feedback, "the policy saw no feedback: the attack did not run"
            assert reward <= share + 1e-9, (env.row.id, family, feedback)
        env.reset(options={"row": index})
        _, reward, terminated, _, info = env.step(env.task.reference_completion(env.row))
        assert (reward, terminated, info["attempts"]) == (1.0, True, 1)  # gold still paid


@pytest.mark.parametrize("task,split", [("mbpp", "validation"), ("humaneval", "test")])
def test_feedback_never_quotes_a_hidden_test_even_when_the_code_echoes_it(task, split):
    from envs.probe import literals

    env = CodeFeedbackEnv(task, split=split)
    for index in _sample(task, split, 3, seed=7):
        _, feedback, actions = _play(env, index, "echo")
        prompt = "\n".join(m["content"] for m in env.row.prompt)
        public = {t["assert_code"] for t in env.row.info["public_tests"]}
        hidden = "\n".join(t["assert_code"] for t in env.row.info["tests"]
                           if t["assert_code"] not in public)
        # Later actions copy what the feedback said, so only the first (data-free) one counts.
        secret = set(literals(hidden)) - set(literals(prompt + "\n" + actions[0]))
        secret -= {str(i) for i in range(-1, 21)}  # counts the feedback states itself
        said = set(literals("\n".join(feedback)))
        assert not secret & said, (env.row.id, secret & said, feedback)


class _NoPublicTests:
    """MBPP's rows without public_tests: a task that shows no test in its prompt."""

    def __init__(self):
        import tasks

        self.inner = tasks.get("mbpp")
        self.name, self.splits = "nopublic", self.inner.splits

    def rows(self, split="train", **kwargs):
        from dataclasses import replace

        return [replace(r, info={k: v for k, v in r.info.items() if k != "public_tests"})
                for r in self.inner.rows(split, **kwargs)]

    def score(self, row, completion):
        return self.inner.score(row, completion)


def test_without_public_tests_the_feedback_says_counts_and_failure_kinds_only():
    env = CodeFeedbackEnv(_NoPublicTests(), split="train")
    env.reset(options={"row_id": "mbpp/train/602"})
    reply, *_ = env.step("```python\ndef first_repeated_char(s):\n"
                         "    raise type('Leak_' + s, (KeyError,), {})(s)\n```")
    assert reply[0]["content"].splitlines() == [
        "Your code failed 3 of 3 tests.", "Tests not shown: 3 of 3 failed (an exception).",
        "Fix the code and reply with the whole function (2 attempts left)."]
    reply, *_ = env.step("```python\ndef first_repeated_char(s):\n    return s[0]\n```")
    assert reply[0]["content"].splitlines()[1] == "Tests not shown: 1 of 3 failed (wrong answer)."


def test_humaneval_docstring_examples_become_public_tests():
    from verifiers.code.datasets import humaneval_examples

    prompt = '''def f(x, y=0):
    """Add.
    >>> f(1)
    1
    >>> f(2) == 2
    >>> f(a)
    3
    f(3, 4) ➞ 7
    f(5) => 5 because five
    f(6, 1) returns 7.
    f(7) == ""aaa"
    f(8) -> 8 - 0 = 8
    For example: f(9) should return 9
    """
'''
    tests = humaneval_examples({"prompt": prompt, "entry_point": "f"})
    assert [t["assert_code"] for t in tests] == [
        "assert f(1) == 1", "assert f(2) == 2", "assert f(3, 4) == 7", "assert f(5) == 5",
        "assert f(6, 1) == 7", "assert f(9) == 9"]
    assert {t["entry_point"] for t in tests} == {"f"} and tests[0]["setup"] == ""
    assert humaneval_examples({"prompt": "def g():\n    pass\n", "entry_point": "g"}) == []
