"""verifiers.deadline: results, typed errors, kills from outside, threads, nesting, clean exit."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from verifiers.deadline import (
    DeadlineExceeded,
    FunctionRef,
    WorkerError,
    run_with_deadline,
)

ROOT = Path(__file__).resolve().parents[1]
# 9 ** (9 ** 9) has ~370 million digits: minutes of C-level big-int work, the GIL held
# throughout, so no signal handler or Python-level check could ever interrupt it.
C_LEVEL = (pow, 9, 9**9)
# Far above any deadline used below and far below the minutes C_LEVEL would take: a call that
# returns within it was stopped by the deadline, not by finishing.
SLACK_S = 30.0


def nested_deadline() -> str:
    """Runs inside a worker process: a deadline must still hold there."""
    try:
        run_with_deadline(*C_LEVEL, timeout=0.3)
    except DeadlineExceeded:
        return "timeout"
    return "finished"


def write_pid_then_spin(path: str) -> None:
    Path(path).write_text(str(os.getpid()))
    C_LEVEL[0](*C_LEVEL[1:])


def rendezvous(mine: str, other: str, limit: float) -> bool:
    """Create ``mine`` and wait for ``other``: only succeeds when both calls run at once."""
    Path(mine).touch()
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if os.path.exists(other):
            return True
        time.sleep(0.01)
    return False


def test_returns_result_and_passes_kwargs():
    assert run_with_deadline(sorted, [3, 1, 2], timeout=30, reverse=True) == [3, 2, 1]
    assert run_with_deadline(FunctionRef("math:gcd"), 12, 18, timeout=30) == 6


def test_exception_becomes_typed_worker_error_with_traceback():
    with pytest.raises(WorkerError) as info:
        run_with_deadline(int, "not a number", timeout=30)
    err = info.value
    assert err.type_name == "ValueError"
    assert "not a number" in err.message
    assert "ValueError" in err.traceback
    # Typed errors survive a trip through pickle (rubrics pass them between processes).
    again = pickle.loads(pickle.dumps(err))
    assert (again.type_name, again.message, again.traceback) == (
        err.type_name,
        err.message,
        err.traceback,
    )


def test_c_level_work_is_killed_and_worker_replaced():
    start = time.monotonic()
    with pytest.raises(DeadlineExceeded) as info:
        run_with_deadline(*C_LEVEL, timeout=0.5)
    assert time.monotonic() - start < SLACK_S
    assert isinstance(info.value, TimeoutError)
    assert info.value.timeout == 0.5
    # The pool still works afterwards (the killed worker was replaced or another is used).
    assert run_with_deadline(pow, 2, 10, timeout=30) == 1024
    assert pickle.loads(pickle.dumps(info.value)).timeout == 0.5


def test_killed_worker_process_is_reaped(tmp_path):
    pid_file = tmp_path / "pid"
    with pytest.raises(DeadlineExceeded):
        run_with_deadline(write_pid_then_spin, str(pid_file), timeout=0.5)
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):  # killed and waited for: not even a zombie
        os.kill(pid, 0)


def test_calls_from_threads_run_in_parallel_and_time_out_independently():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        results: dict[str, object] = {}

        def call(name: str, mine: str, other: str) -> None:
            results[name] = run_with_deadline(rendezvous, mine, other, 20.0, timeout=25)

        def slow() -> None:
            try:
                run_with_deadline(*C_LEVEL, timeout=0.5)
            except DeadlineExceeded:
                results["slow"] = "timeout"

        threads = [
            threading.Thread(target=call, args=("a", a, b)),
            threading.Thread(target=call, args=("b", b, a)),
            threading.Thread(target=slow),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        # Both rendezvous calls saw each other: they ran in two workers at the same time.
        assert results == {"a": True, "b": True, "slow": "timeout"}


def test_deadline_holds_inside_our_own_worker():
    assert run_with_deadline(nested_deadline, timeout=60) == "timeout"


def test_deadline_holds_inside_a_daemonic_multiprocessing_worker():
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:  # Pool workers are daemonic: they may not start Process children
        assert pool.apply_async(nested_deadline).get(timeout=120) == "timeout"


def test_unpicklable_call_is_a_worker_error_not_a_hang():
    with pytest.raises(WorkerError) as info:
        run_with_deadline(lambda: 1, timeout=5)
    assert "cannot send the call" in info.value.message
    with pytest.raises(WorkerError) as info:
        run_with_deadline(threading.Lock, timeout=5)  # the result cannot be pickled back
    assert info.value.type_name == "PicklingError"


def test_worker_death_is_reported_and_pool_recovers():
    with pytest.raises(WorkerError) as info:
        run_with_deadline(os._exit, 3, timeout=30)
    assert info.value.type_name == "WorkerDied"
    assert "code 3" in info.value.message
    assert run_with_deadline(abs, -4, timeout=30) == 4


def test_printing_inside_fn_does_not_corrupt_the_protocol():
    assert run_with_deadline(print, "hello from a worker", timeout=30) is None
    assert run_with_deadline(abs, -1, timeout=30) == 1


@pytest.mark.parametrize("bad", [0, -1, float("inf"), float("nan"), "1", None, True])
def test_invalid_timeout_is_rejected(bad):
    with pytest.raises((ValueError, TypeError), match="timeout"):
        run_with_deadline(abs, 1, timeout=bad)


def test_function_ref_validates_its_target():
    with pytest.raises(ValueError, match="target"):
        FunctionRef("no_colon")
    assert FunctionRef("math:sqrt")(9.0) == 3.0


_EXIT_SCRIPT = """
import sys, threading
from verifiers.deadline import run_with_deadline
print(run_with_deadline(__import__("os").getpid, timeout=30), flush=True)
def busy():
    try:
        run_with_deadline(pow, 9, 9 ** 9, timeout=600)
    except Exception:
        pass
threading.Thread(target=busy, daemon=True).start()
import time; time.sleep(0.5)
print(run_with_deadline(__import__("os").getpid, timeout=30), flush=True)
"""


def test_interpreter_exit_is_clean_even_with_a_busy_worker():
    proc = subprocess.run(
        [sys.executable, "-c", _EXIT_SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,  # a hang at exit would run into this (the busy pow takes minutes)
    )
    assert proc.returncode == 0, proc.stderr
    pids = [int(x) for x in proc.stdout.split()]
    assert len(pids) == 2
    for pid in pids:
        # Reaped (no zombie left behind) or at least not running our code any more.
        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"worker {pid} outlived its parent")


SCRIPT = '''
from verifiers.rubric import RewardFunc, Rubric

def exact(completion, answer):
    return float(completion == answer)

{body}
'''
SCORE = 'print("total", Rubric([RewardFunc("exact", exact)]).score("7", "7").total)'


def _run_script(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    script = tmp_path / "my_reward.py"
    script.write_text(SCRIPT.format(body=body))
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)


def test_a_reward_function_of_the_users_script_runs_in_a_worker(tmp_path):
    # The rubric sends `_call(fn, ...)`: fn, defined in the script's __main__, sits in the
    # arguments, so the worker must import the script even though `_call` does not live there.
    out = _run_script(tmp_path, 'if __name__ == "__main__":\n    ' + SCORE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "total 1.0"


def test_a_script_without_a_main_guard_does_not_start_workers_recursively(tmp_path):
    # In the worker, importing the script re-runs its top-level scoring; that must not start
    # another worker (which would import the script again, and so on).
    out = _run_script(tmp_path, SCORE)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "total 1.0"
    assert out.stderr.count('put that code under `if __name__ == "__main__":`') >= 1
