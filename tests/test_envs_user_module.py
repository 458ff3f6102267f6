"""``envs.make`` (and so ``--env``) on the user's own module: ``module:task`` for a task it
registers, ``module:factory`` for a factory registered under another name or not at all,
``module:EnvClass`` and Gymnasium's ``module:EnvId`` as before."""

from __future__ import annotations

import itertools
import sys
import textwrap
from pathlib import Path

import gymnasium
import pytest

import envs

MODULE = textwrap.dedent('''
    import gymnasium
    import tasks
    from envs import GuessNumberEnv
    from tasks import Problem, Task
    from verifiers.gsm8k import gsm8k_check
    from verifiers.rubric import Rubric

    def _task(name, n):
        def problems(split, seed, path):
            return (Problem(f"{name}/{i}", f"2*{i}?", str(2 * i)) for i in range(n))
        return Task(name, problems, Rubric([gsm8k_check]))

    @tasks.register("quad")
    def quadruple(n: int = 3) -> Task:
        return _task("quad", n)

    @tasks.register("{name}")
    def {name}(n: int = 3) -> Task:
        return _task("{name}", n)

    def unregistered(n: int = 3) -> Task:
        return _task("unregistered", n)

    class SmallGuess(GuessNumberEnv):
        pass

    gymnasium.register("{name}-guess-v0", entry_point=SmallGuess)
''')


_COUNTER = itertools.count()


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    name = f"ut_{next(_COUNTER)}"  # short: the names appear in "known envs" lists
    (tmp_path / f"{name}.py").write_text(MODULE.replace("{name}", name))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def _first_prompt(env) -> str:
    return env.reset(seed=0)[0][-1]["content"]


def test_module_colon_registered_task(user_module: str):
    env = envs.make(f"{user_module}:{user_module}", split="test")
    assert env.spec.id == f"rlvr/{user_module}-v0"
    env.reset(seed=0)
    assert env.step("#### " + env.unwrapped.row.answer)[1] == 1.0


def test_module_colon_factory_registered_under_another_name(user_module: str):
    assert envs.make(f"{user_module}:quadruple").spec.id == "rlvr/quad-v0"
    assert envs.make(f"{user_module}:quad").spec.id == "rlvr/quad-v0"
    assert envs.make(f"{user_module}:rlvr/quad-v0").spec.id == "rlvr/quad-v0"


def test_module_colon_unregistered_factory(user_module: str):
    env = envs.make(f"{user_module}:unregistered", split="test")
    assert "2*" in _first_prompt(env)


def test_env_class_and_gymnasium_id_forms_still_work(user_module: str):
    assert type(envs.make(f"{user_module}:SmallGuess")).__name__ == "SmallGuess"
    made = envs.make(f"{user_module}:{user_module}-guess-v0")
    assert made.spec.id == f"{user_module}-guess-v0"
    assert isinstance(made, gymnasium.Env)


def test_unknown_names_are_one_line_naming_the_fix(user_module: str):
    with pytest.raises(ValueError, match="task factory 'nope'") as err:
        envs.make(f"{user_module}:nope")
    assert "\n" not in str(err.value)
    with pytest.raises(ImportError, match="run from the folder that holds no_such_mod.py"):
        envs.make("no_such_mod:double")
    with pytest.raises(ValueError, match="--module my_tasks"):
        envs.make("certainly-not-registered")
