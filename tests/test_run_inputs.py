"""What a run records of its shell, and what ``--resume`` puts back (issue 36, item 1).

The README's own commands set a relative ``RLVR_DATA_DIR=../shared/data``; the printed
``continue with:`` command names ``--out`` absolutely, so it is run from anywhere. These call
:mod:`policy_opt.training.run_inputs` in-process; ``tests/test_run_moments.py`` runs the
trainer itself.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from policy_opt.config import TrainConfig
from policy_opt.training.run_inputs import INPUTS_FILE, record_inputs, restore_inputs


def _run_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A run started in ``tmp_path/here`` with ``RLVR_DATA_DIR=../data`` (as the README does)."""
    data, here, out = tmp_path / "data", tmp_path / "here", tmp_path / "here" / "runs" / "r"
    (data / "gsm8k").mkdir(parents=True)
    out.mkdir(parents=True)
    monkeypatch.chdir(here)
    monkeypatch.setenv("RLVR_DATA_DIR", "../data")
    monkeypatch.delenv("RLVR_CACHE", raising=False)
    record_inputs(out, TrainConfig(env="gsm8k", out=str(out)))
    return data, out


def test_a_relative_data_location_is_recorded_as_the_folder_it_named(tmp_path, monkeypatch):
    data, out = _run_folder(tmp_path, monkeypatch)
    recorded = json.loads((out / INPUTS_FILE).read_text())["env_vars"]["RLVR_DATA_DIR"]
    assert Path(recorded) == data.resolve()


def test_resume_from_another_folder_reads_the_data_the_run_started_with(tmp_path, monkeypatch):
    data, out = _run_folder(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)  # where "../data" names nothing
    monkeypatch.delenv("RLVR_DATA_DIR")
    said: list[str] = []
    restore_inputs(TrainConfig(out=str(out), resume=True), said.append)
    assert Path(os.environ["RLVR_DATA_DIR"]).resolve() == data.resolve()
    assert any("RLVR_DATA_DIR" in line for line in said)


def test_a_run_recorded_before_paths_were_absolute_resolves_them_where_it_ran(
        tmp_path, monkeypatch):
    data, out = _run_folder(tmp_path, monkeypatch)
    inputs = json.loads((out / INPUTS_FILE).read_text())
    inputs["env_vars"]["RLVR_DATA_DIR"] = "../data"  # as older runs wrote it
    (out / INPUTS_FILE).write_text(json.dumps(inputs))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RLVR_DATA_DIR")
    restore_inputs(TrainConfig(out=str(out), resume=True), lambda msg: None)
    assert Path(os.environ["RLVR_DATA_DIR"]).resolve() == data.resolve()


def test_the_same_folder_spelt_another_way_is_no_disagreement(tmp_path, monkeypatch):
    data, out = _run_folder(tmp_path, monkeypatch)
    monkeypatch.setenv("RLVR_DATA_DIR", str(data))  # absolute now, relative at the start
    said: list[str] = []
    restore_inputs(TrainConfig(out=str(out), resume=True), said.append)
    assert not any("RLVR_DATA_DIR" in line for line in said), said
