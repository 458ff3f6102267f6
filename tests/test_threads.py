"""--threads 0 picks the free cores, not every core (issue 36, item 4)."""

from __future__ import annotations

import os

import pytest
import torch

from policy_opt.train import main
from policy_opt.training import threads as threads_module
from policy_opt.training.threads import choose_threads, free_threads


@pytest.mark.parametrize(("cores", "load", "threads"), [
    (2, 0.0, 2), (2, 0.4, 2), (2, 1.0, 1), (2, 2.0, 1), (2, 9.0, 1),  # never below 1
    (8, 3.2, 5), (8, 0.0, 8), (1, 0.0, 1), (4, -1.0, 4),             # nor above the cores
])
def test_free_threads_are_the_cores_the_load_leaves(cores, load, threads):
    assert free_threads(cores, load) == threads


def test_a_given_count_wins_and_auto_says_why_it_took_fewer(monkeypatch):
    assert choose_threads(3) == (3, None)
    monkeypatch.setattr(threads_module, "runnable_others", lambda: 0)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (2.6, 0.0, 0.0))
    n, note = choose_threads(0)
    assert n == 1 and "load average 2.6" in note and "--threads" in note
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert choose_threads(0) == (4, None)
    # A job started seconds ago is not in the 1-minute average yet, but is runnable now.
    monkeypatch.setattr(threads_module, "runnable_others", lambda: 2)
    assert choose_threads(0)[0] == 2


def test_a_run_on_busy_cores_takes_fewer_threads(tiny_model, tmp_path, monkeypatch, capsys):
    before = torch.get_num_threads()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 2.0, 2.0))  # another trainer's load
    try:
        torch.set_num_threads(2)
        assert main(["--model", str(tiny_model), "--out", str(tmp_path / "run"),
                     "--prompts-per-step", "2", "--group-size", "2", "--max-new-tokens", "4",
                     "--eval-prompts", "2", "--eval-k", "1", "--max-steps", "1", "--mu", "1",
                     "--env-workers", "1"]) == 0
        assert torch.get_num_threads() == 1
        assert "torch uses 1 thread" in capsys.readouterr().out
    finally:
        torch.set_num_threads(before)
