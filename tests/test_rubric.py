"""verifiers.rubric: weighted totals, gating, typed and counted failures, parallel batches."""

from __future__ import annotations

import asyncio
import functools
import math
import os
import pickle
import time

import pytest

from verifiers.format import format_check, format_reward
from verifiers.gsm8k import gsm8k_check
from verifiers.rubric import RewardError, RewardFunc, Rubric, RubricScore
from verifiers.types import Verdict

# Reward functions live at module level so that they pickle by reference into the deadline
# workers (the worker imports this module through the parent's sys.path).

GOOD = "<think>6*7</think><answer>#### 42</answer>"


def exact(completion, answer, **info):
    return float(completion.strip().endswith(str(answer)))


def half(completion, answer):
    return 0.5


def boom(completion, answer):
    raise ZeroDivisionError("reward bug")


def never_ends(completion, answer):
    # Big-integer work in C: never returns to the interpreter loop, so only a kill stops it.
    return float(pow(9, 9**9) > 0)


def returns(value, completion, answer):
    return value


def no_signal(completion, answer):
    return Verdict(None, "sandbox failed to start")


def unpicklable_result(completion, answer):
    return Verdict(1.0, "correct", details={"fn": lambda: 0})


def pid_reason(completion, answer):
    return Verdict(1.0, str(os.getpid()))


def info_echo(completion, answer, **info):
    return Verdict(1.0, ",".join(f"{k}={v}" for k, v in sorted(info.items())))


def make_rubric(**kw) -> Rubric:
    return Rubric(
        [RewardFunc("format", format_reward, weight=0.25), RewardFunc("accuracy", gsm8k_check)],
        **kw,
    )


def test_weighted_mean_total_and_breakdown():
    rubric = make_rubric()
    s = rubric.score(GOOD, "42")
    assert isinstance(s, RubricScore)
    assert s.total == 1.0 and s.breakdown == {"format": 1.0, "accuracy": 1.0}
    assert s.reasons == {"accuracy": "correct"}  # format_reward returns a bare float
    assert s.errors == () and s.unguarded == ()
    s = rubric.score("#### 42", "42")  # right answer, no tags: not gated here
    assert s.breakdown == {"format": 0.0, "accuracy": 1.0}
    assert s.total == pytest.approx(1.0 / 1.25)
    s = rubric.score(GOOD, "41")
    assert s.total == pytest.approx(0.25 / 1.25) and s.reasons["accuracy"] == "wrong"


def test_gate_skips_the_other_functions():
    rubric = make_rubric(gate="format")
    s = rubric.score("#### 42", "42")
    assert s.total == 0.0
    assert s.breakdown == {"format": 0.0, "accuracy": 0.0}
    assert s.reasons["accuracy"] == "gated: format=0 < 1"
    counters = rubric.counters
    assert counters["calls"] == 1 and counters["gated"] == 1  # accuracy was never called
    assert rubric.score(GOOD, "42").total == 1.0
    assert list(rubric.score(GOOD, "42").breakdown) == ["format", "accuracy"]  # declared order


def test_gate_that_errors_gives_no_signal_and_skips_the_rest():
    rubric = Rubric([RewardFunc("acc", half), RewardFunc("fmt", boom)], gate="fmt")
    s = rubric.score("x", "y")
    assert s.total is None
    assert s.breakdown == {"acc": None, "fmt": None}
    assert s.reasons["acc"].startswith("not run: gate fmt")
    assert [e.kind for e in s.errors] == ["exception"]
    assert rubric.counters["calls"] == 1


def test_exception_is_a_typed_counted_error_and_total_is_none():
    rubric = Rubric([RewardFunc("fmt", format_reward), RewardFunc("bug", boom)])
    s = rubric.score(GOOD, "42")
    assert s.total is None  # never a silent 0
    assert s.breakdown == {"fmt": 1.0, "bug": None}
    (error,) = s.errors
    assert error == RewardError("bug", "exception", "ZeroDivisionError: reward bug")
    assert str(error) == "bug: exception: ZeroDivisionError: reward bug"
    assert s.reasons["bug"] == "exception: ZeroDivisionError: reward bug"
    c = rubric.counters
    assert (c["errors"], c["errors/exception"], c["errors/exception/bug"]) == (1, 1, 1)
    assert (c["samples"], c["samples_no_signal"], c["errors/timeout"]) == (1, 1, 0)
    rubric.reset_counters()
    assert rubric.counters["errors"] == 0


def test_timeout_kills_c_level_work_and_is_reported():
    rubric = Rubric([RewardFunc("fmt", format_reward), RewardFunc("slow", never_ends)], timeout=1)
    s = rubric.score(GOOD, "42")
    assert s.total is None
    (error,) = s.errors
    assert (error.name, error.kind) == ("slow", "timeout")
    assert "exceeded 1 s (killed)" in error.message
    assert rubric.counters["errors/timeout/slow"] == 1
    # The pool recovered: the next call works.
    assert rubric.score(GOOD, "42").errors[0].kind == "timeout"
    assert Rubric([format_reward]).score(GOOD, None).total == 1.0


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (float("nan"), "nan"),
        (1.5, "1.5"),
        (-0.1, "-0.1"),
        (float("inf"), "inf"),
        ("1.0", "str"),
        (None, "NoneType"),
        ([1.0], "list"),
        (Verdict(2.0, "correct"), "2.0"),
    ],
)
def test_invalid_returns_are_typed_errors(value, fragment):
    rubric = Rubric([RewardFunc("f", functools.partial(returns, value))])
    s = rubric.score("x", "y")
    assert s.total is None and s.breakdown == {"f": None}
    (error,) = s.errors
    assert error.kind == "invalid_return" and fragment in error.message
    assert rubric.counters["errors/invalid_return"] == 1


@pytest.mark.parametrize("value", [0, 1, True, False, 0.25, Verdict(0.75, "partial")])
def test_valid_returns(value):
    s = Rubric([RewardFunc("f", functools.partial(returns, value))]).score("x", "y")
    assert s.errors == ()
    assert s.total == float(value.reward if isinstance(value, Verdict) else value)


def test_unpicklable_result_is_an_invalid_return():
    s = Rubric([unpicklable_result]).score("x", "y")
    assert s.total is None and s.errors[0].kind == "invalid_return"


def test_verdict_without_reward_is_no_signal_not_an_error():
    rubric = Rubric([RewardFunc("fmt", format_reward), RewardFunc("code", no_signal)])
    s = rubric.score(GOOD, "")
    assert s.total is None and s.errors == ()
    assert s.breakdown["code"] is None
    assert s.reasons["code"] == "sandbox failed to start"
    assert rubric.counters["no_signal/code"] == 1 and rubric.counters["samples_no_signal"] == 1


def test_guarded_functions_run_in_another_process_in_process_ones_here():
    rubric = Rubric(
        [RewardFunc("out", pid_reason), RewardFunc("here", pid_reason, in_process=True)]
    )
    s = rubric.score("x", "y")
    assert int(s.reasons["out"]) != os.getpid()
    assert int(s.reasons["here"]) == os.getpid()
    assert s.unguarded == ("here",)
    assert rubric.counters["unguarded_calls"] == 1


def test_unpicklable_function_warns_runs_in_process_and_says_so():
    with pytest.warns(RuntimeWarning, match="cannot be pickled"):
        rubric = Rubric([RewardFunc("lam", lambda c, a: float(c == a))])
    s = rubric.score("7", "7")
    assert s.total == 1.0 and s.unguarded == ("lam",)
    assert not rubric.funcs[0].guarded


def test_in_process_overrun_is_still_reported_as_timeout():
    # Any call outlasts a 1 ns deadline; in-process calls cannot be stopped, only reported.
    rubric = Rubric([RewardFunc("f", half, in_process=True)], timeout=1e-9)
    s = rubric.score("x", "y")
    assert s.total is None
    assert s.errors[0].kind == "timeout" and "could not be stopped" in s.errors[0].message


def test_info_goes_only_to_functions_that_accept_it():
    rubric = Rubric([RewardFunc("echo", info_echo), RewardFunc("acc", gsm8k_check)])
    assert rubric.funcs[0].takes_info and not rubric.funcs[1].takes_info
    s = rubric.score("#### 3", "3", level=2, source="x")
    assert s.errors == ()
    assert s.reasons["echo"] == "level=2,source=x"
    assert s.total == 1.0
    # Info named like fn's own parameters cannot reach it: a loud, typed error, not a guess.
    s = rubric.score("#### 3", "3", completion="c")
    assert s.total is None and s.breakdown["acc"] == 1.0
    assert s.errors[0].kind == "exception" and "multiple values" in s.errors[0].message


def test_bare_callables_get_their_names():
    assert Rubric([format_reward, gsm8k_check]).names == ("format_reward", "gsm8k_check")


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([],), {}, ValueError, "at least one"),
        ((format_reward,), {}, TypeError, "list"),
        (([3],), {}, TypeError, "neither"),
        (([format_reward, format_reward],), {}, ValueError, "distinct"),
        (([format_reward],), {"gate": "format"}, ValueError, "gate"),
        (([format_reward],), {"timeout": 0}, ValueError, "timeout"),
        (([format_reward],), {"timeout": math.inf}, ValueError, "timeout"),
        (([format_reward],), {"timeout": "5"}, TypeError, "timeout"),
        (([RewardFunc("a", half, weight=0.0)],), {}, ValueError, "weight > 0"),
    ],
)
def test_bad_rubric_arguments(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        Rubric(*args, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"name": "", "fn": half}, ValueError, "name"),
        ({"name": "a", "fn": 3}, TypeError, "callable"),
        ({"name": "a", "fn": half, "weight": -1.0}, ValueError, "weight"),
        ({"name": "a", "fn": half, "weight": float("nan")}, ValueError, "weight"),
        ({"name": "a", "fn": half, "weight": "1"}, TypeError, "weight"),
    ],
)
def test_bad_reward_func_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        RewardFunc(**kwargs)


def test_zero_weight_function_is_logged_but_not_counted():
    rubric = Rubric([RewardFunc("acc", exact), RewardFunc("probe", half, weight=0.0)])
    s = rubric.score("is 4", "4")
    assert s.total == 1.0 and s.breakdown["probe"] == 0.5


def test_score_batch_matches_score_in_order_with_errors_isolated():
    rubric = Rubric([RewardFunc("fmt", format_check, weight=0.5), RewardFunc("acc", exact)])
    completions = [GOOD, "#### 42", None, GOOD, "<think>a</think><answer>7</answer>"] * 3
    answers = ["</answer>", "42", "1", "41", "</answer>"] * 3
    batch = rubric.score_batch(completions, answers, workers=3)
    one_by_one = [rubric.score(c, a) for c, a in zip(completions, answers)]
    assert batch == one_by_one
    assert [s.total for s in batch[:5]] == [
        1.0,
        pytest.approx(2 / 3),
        None,
        pytest.approx(1 / 3),
        1.0,
    ]
    assert batch[2].errors[0].kind == "exception"  # None.strip() in `exact`
    assert rubric.counters["samples"] == 30


def test_score_batch_passes_infos_and_checks_lengths():
    rubric = Rubric([info_echo])
    scores = rubric.score_batch(["a", "b"], ["1", "2"], [{"k": 1}, {"k": 2}], workers=2)
    assert [s.reasons["info_echo"] for s in scores] == ["k=1", "k=2"]
    with pytest.raises(ValueError, match="answers"):
        rubric.score_batch(["a"], [])
    with pytest.raises(ValueError, match="infos"):
        rubric.score_batch(["a"], ["1"], [])
    with pytest.raises(TypeError, match=r"infos\[0\]"):
        rubric.score_batch(["a"], ["1"], ["not a mapping"])
    with pytest.raises(ValueError, match="workers"):
        rubric.score_batch(["a"], ["1"], workers=0)
    assert rubric.score_batch([], []) == []


def test_score_batch_runs_timeouts_in_parallel_workers():
    rubric = Rubric([RewardFunc("slow", never_ends)], timeout=1)
    scores = rubric.score_batch(["x"] * 2, ["y"] * 2, workers=2)
    assert [s.errors[0].kind for s in scores] == ["timeout", "timeout"]
    assert rubric.counters["errors/timeout"] == 2


def test_rubric_pickles_and_the_copy_scores():
    rubric = make_rubric(gate="format")
    rubric.score(GOOD, "42")
    copy = pickle.loads(pickle.dumps(rubric))
    assert copy.score(GOOD, "42").total == 1.0
    assert copy.gate == "format" and copy.names == ("format", "accuracy")


def test_importing_rubric_adapters_format_and_cli_never_imports_torch():
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, verifiers.rubric, verifiers.adapters, verifiers.format, verifiers.cli;"
        "print(sorted(m for m in ('torch', 'trl', 'transformers') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


def one(completion, answer):
    return 1.0


def exits(completion, answer):
    raise SystemExit(3)


@pytest.mark.parametrize("weight", [1e308, 1e-300])  # not subnormal: some imports flush those to 0
def test_extreme_weights_still_give_the_weighted_mean(weight):
    # 1e308 + 1e308 overflowed to inf and the total came out 0.0 whatever the rewards were.
    rubric = Rubric([RewardFunc("one", one, weight=weight), RewardFunc("half", half, weight=weight)])
    assert rubric.score("x", "y").total == 0.75


@pytest.mark.parametrize("value", [10**400, Verdict(10**400, "huge")], ids=["int", "verdict"])
def test_a_return_too_big_for_a_float_is_an_invalid_return_not_an_exception(value):
    rubric = Rubric([RewardFunc("f", functools.partial(returns, value))])
    s = rubric.score("x", "y")
    assert s.total is None
    (error,) = s.errors
    assert (error.kind, error.message) == (
        "invalid_return",
        "returned a int that is not a float: OverflowError",
    )
    assert rubric.counters["errors/invalid_return/f"] == 1


@pytest.mark.parametrize("in_process", [False, True])
def test_sys_exit_in_a_reward_function_is_reported_not_raised(in_process):
    s = Rubric([RewardFunc("f", exits, in_process=in_process)]).score("x", "y")
    assert s.total is None
    assert s.reasons["f"] == "exception: SystemExit: 3"


def test_score_batch_refuses_a_bare_string():
    rubric = Rubric([half])
    with pytest.raises(TypeError, match="completions must be a sequence"):
        rubric.score_batch("ab", ["1", "2"])
    with pytest.raises(TypeError, match="answers must be a sequence"):
        rubric.score_batch(["a", "b"], "12")


# --- async reward functions ------------------------------------------------------------


async def slow_judge(completion, answer, **info):
    """A remote judge: waits on I/O, then compares."""
    await asyncio.sleep(0.4)
    return Verdict(float(completion == answer), f"judged {info.get('index')}")


async def hangs(completion, answer):
    await asyncio.sleep(60)
    return 1.0


async def async_boom(completion, answer):
    raise ConnectionError("judge unreachable")


async def async_returns(value, completion, answer):
    return value


class AsyncJudge:
    async def __call__(self, completion, answer):
        await asyncio.sleep(0)
        return 1.0


def test_async_reward_functions_are_awaited_and_typed():
    rubric = Rubric([RewardFunc("judge", slow_judge), RewardFunc("fmt", format_reward)])
    s = rubric.score("x", "x", index=3)
    assert s.breakdown == {"judge": 1.0, "fmt": 0.0} and s.reasons["judge"] == "judged 3"
    assert s.unguarded == () and s.errors == ()
    assert Rubric([AsyncJudge()]).score("x", "y").total == 1.0
    assert Rubric([functools.partial(async_returns, 0.25)]).score("x", "y").total == 0.25


def test_async_functions_of_a_batch_run_concurrently():
    rubric = Rubric([RewardFunc("judge", slow_judge)])
    n = 8
    start = time.monotonic()
    scores = rubric.score_batch(["a"] * n, ["a"] * (n - 1) + ["b"], [{"index": i} for i in range(n)],
                                workers=1)
    elapsed = time.monotonic() - start
    assert [s.total for s in scores] == [1.0] * (n - 1) + [0.0]
    assert [s.reasons["judge"] for s in scores] == [f"judged {i}" for i in range(n)]
    assert elapsed < n * 0.4 / 2, f"{n} calls of 0.4 s took {elapsed:.2f} s: not concurrent"


def test_async_deadline_cancels_and_errors_are_typed_and_counted():
    rubric = Rubric([RewardFunc("slow", hangs)], timeout=0.3)
    start = time.monotonic()
    s = rubric.score("x", "y")
    assert time.monotonic() - start < 5
    assert s.total is None and s.errors[0].kind == "timeout" and "cancelled" in s.reasons["slow"]
    s = Rubric([async_boom]).score("x", "y")
    assert s.total is None and s.errors[0].kind == "exception"
    assert "ConnectionError: judge unreachable" in s.errors[0].message
    for bad in (float("nan"), 2.0, "1.0"):
        r = Rubric([RewardFunc("r", functools.partial(async_returns, bad))])
        assert r.score("x", "y").errors[0].kind == "invalid_return"
        assert r.counters["errors/invalid_return/r"] == 1


def test_async_and_sync_functions_mix_under_a_gate_and_inside_a_running_loop():
    rubric = Rubric([RewardFunc("fmt", format_reward), RewardFunc("judge", slow_judge)],
                    gate="fmt")
    s = rubric.score("x", "x")
    assert s.total == 0.0 and s.reasons["judge"] == "gated: fmt=0 < 1"
    good = "<think>a</think><answer>b</answer>"

    async def main():
        one = await rubric.ascore(good, good)
        many = await rubric.ascore_batch([good, "x"], [good, "x"])
        return one, many

    one, many = asyncio.run(main())
    assert one.breakdown == {"fmt": 1.0, "judge": 1.0}
    assert [s.total for s in many] == [1.0, 0.0]
