"""Envs cross process boundaries: every registered ``rlvr/*`` env pickles (and the copy
plays on from where it was), and ``gymnasium.make_vec(..., vectorization_mode="async")``
works with its default arguments (shared memory on) for every one of them."""

from __future__ import annotations

import multiprocessing
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import gymnasium
import pytest

import envs
from envs.base import ChatMessages
from envs.vector_memory import ChatMessagesBatch

ROOT = Path(__file__).resolve().parent.parent
IDS = envs.register_all()
# An answer every env takes (a number, in a code block, in the '#### N' form).
ACTION = "```python\ndef f():\n    return 1\n```\n#### 1"


def test_every_env_id_is_covered():
    assert {"rlvr/gsm8k-v0", "rlvr/guess-number-v0", "rlvr/code-feedback-v0",
            "rlvr/calculator-v0", "rlvr/arithmetic-v0"} <= set(IDS)


@pytest.mark.parametrize("env_id", IDS)
def test_every_env_pickles_mid_episode(env_id: str):
    env = gymnasium.make(env_id)
    prompt, _ = env.reset(seed=3)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.unwrapped.messages == env.unwrapped.messages
    # both continue identically from the same state
    assert copy.step(ACTION)[1:3] == env.step(ACTION)[1:3]
    assert copy.reset(seed=4)[0] == env.reset(seed=4)[0]


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_async_with_default_arguments(env_id: str):
    vec = gymnasium.make_vec(env_id, 2, vectorization_mode="async")
    try:
        assert vec.shared_memory  # the default, not a fallback
        obs, _ = vec.reset(seed=[5, 6])
        single = [gymnasium.make(env_id).reset(seed=s)[0] for s in (5, 6)]
        assert list(obs) == single
        _, rewards, terminated, truncated, _ = vec.step((ACTION, ACTION))
        assert rewards.shape == (2,) and terminated.dtype == bool and truncated.dtype == bool
    finally:
        vec.close()


def test_make_vec_async_under_spawn_rebuilds_the_task_in_the_child():
    vec = gymnasium.make_vec("rlvr/arithmetic-v0", 2, vectorization_mode="async",
                             vector_kwargs={"context": "spawn"})
    try:
        obs, _ = vec.reset(seed=[0, 1])
        assert "What is" in obs[0][-1]["content"]
    finally:
        vec.close()


def test_a_user_task_env_pickles_into_a_fresh_process(tmp_path: Path):
    # A task registered by the user's module: the copy re-imports the module to rebuild it.
    (tmp_path / "my_tasks.py").write_text(textwrap.dedent('''
        import tasks
        from tasks import Problem, Task
        from verifiers.gsm8k import gsm8k_check
        from verifiers.rubric import Rubric

        @tasks.register("triple")
        def triple(n: int = 5) -> Task:
            def problems(split, seed, path):
                return (Problem(f"t/{i}", f"3*{i}?", str(3 * i)) for i in range(n))
            return Task("triple", problems, Rubric([gsm8k_check]))
    '''))
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import my_tasks, envs, "
            "pickle; e = envs.make('triple', task_kwargs={'n': 3}); e.reset(seed=0); "
            "sys.stdout.buffer.write(pickle.dumps(e))")
    env_vars = {"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"}
    made = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120,
                          env=env_vars, check=True)
    load = ("import pickle, sys; e = pickle.loads(sys.stdin.buffer.read()); "
            "print(e.unwrapped.row.id, e.step('#### ' + e.unwrapped.row.answer)[1])")
    out = subprocess.run([sys.executable, "-c", load], input=made.stdout, capture_output=True,
                         timeout=120, env=env_vars)
    assert out.returncode == 0, out.stderr.decode()[-2000:]
    row_id, reward = out.stdout.decode().split()
    assert row_id.startswith("t/") and float(reward) == 1.0


def test_shared_memory_slot_round_trips_and_refuses_an_oversized_observation():
    from gymnasium.vector.utils import (
        create_shared_memory,
        read_from_shared_memory,
        write_to_shared_memory,
    )

    space = ChatMessages(max_chars=20, max_messages=2, max_total_chars=20)
    memory = create_shared_memory(space, n=3, ctx=multiprocessing)
    view = read_from_shared_memory(space, memory, n=3)
    assert isinstance(view, ChatMessagesBatch) and list(view) == [[], [], []]
    odd = [{"role": "tool", "content": "😀\x00\"é", "name": "calc"}]
    write_to_shared_memory(space, 2, odd, memory)
    assert view[2] == odd and view[-1] == odd and view[0] == []
    import copy

    snapshot = copy.deepcopy(view)
    write_to_shared_memory(space, 2, [], memory)
    assert snapshot == ([], [], odd) and view[2] == []  # a copy does not follow the memory
    with pytest.raises(ValueError, match="shared_memory=False"):
        write_to_shared_memory(space, 0, [{"role": "user", "content": "x" * 100_000}], memory)
    with pytest.raises(IndexError):
        view[3]


def test_the_total_character_bound_is_part_of_the_space():
    space = ChatMessages(max_chars=10, max_total_chars=15)
    assert space.contains([{"role": "user", "content": "x" * 10}])
    assert not space.contains([{"role": "user", "content": "x" * 10}] * 2)
    env = gymnasium.make("rlvr/guess-number-v0")
    assert env.observation_space.max_total_chars == env.unwrapped.max_chars


QUAD_MODULE = '''
import tasks
from tasks import Problem, Task
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import Rubric


def problems(split, seed, path):
    return (Problem(f"q/{i}", f"What is 2*2 (take {i})?", "4") for i in range(5))


@tasks.register("quad")
def make_quad() -> Task:
    return Task("quad", problems, Rubric([gsm8k_check]))
'''

VEC_SCRIPT = '''
import sys, gymnasium
{setup}
import envs  # registers rlvr/<task>-v0 for every task registered so far
for context in ("spawn", "forkserver"):
    try:
        vec = gymnasium.make_vec("rlvr/quad-v0", 2, vectorization_mode="async",
                                 vector_kwargs={{"context": context}})
    except Exception as e:
        print(context, "raised", type(e).__name__, str(e).replace(chr(10), " "))
        continue
    try:
        obs, _ = vec.reset(seed=[0, 1])
        _, rewards, *_ = vec.step(("#### 4", "#### 5"))
        print(context, "ok", "2*2" in obs[1][-1]["content"], [float(r) for r in rewards])
    finally:
        vec.close()
'''


def _vec_run(tmp_path: Path, setup: str) -> list[str]:
    (tmp_path / "quad_tasks.py").write_text(QUAD_MODULE)
    env_vars = {"PYTHONPATH": f"{ROOT}:{tmp_path}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", VEC_SCRIPT.format(setup=setup)],
                         capture_output=True, text=True, timeout=300, env=env_vars,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip().splitlines()


def test_a_task_registered_in_an_importable_module_works_under_spawn_and_forkserver(tmp_path):
    lines = _vec_run(tmp_path, "import quad_tasks")
    assert [line.split()[:2] for line in lines] == [["spawn", "ok"], ["forkserver", "ok"]]
    for line in lines:
        assert line.endswith("True [1.0, 0.0]"), line


def test_a_worker_that_cannot_build_the_env_raises_its_own_error_in_the_parent(tmp_path):
    # Registered in __main__ (a `python -c` script): a spawn/forkserver worker cannot
    # import it, so it does not know the task; the parent must say so, not ConnectionReset.
    lines = _vec_run(tmp_path, QUAD_MODULE)
    assert len(lines) == 2
    for context, line in zip(("spawn", "forkserver"), lines):
        assert line.startswith(f"{context} raised "), line
        assert "ConnectionResetError" not in line and "EOFError" not in line, line
        assert "unknown task 'quad'" in line, line
