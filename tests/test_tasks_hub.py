"""Missing data fails fast: offline, or with the hub unreachable on the first try, the
``DataNotFound`` error comes in about a second, not after ~30 s of hub retries."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import tasks
from tasks import hub
from tasks.sources import DataNotFound

ROOT = Path(__file__).resolve().parents[1]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HTTPS_PROXY",
                                                                      "https_proxy"))}
    empty = tmp_path / "data"
    empty.mkdir(exist_ok=True)
    env.update(RLVR_DATA_DIR=str(empty), HF_HOME=str(tmp_path / "hf"), PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


@pytest.mark.parametrize(
    "extra",
    [
        {"HF_HUB_OFFLINE": "1"},
        # port 9 (discard) on this machine refuses: the hub is unreachable on the first try
        {"HF_ENDPOINT": "http://127.0.0.1:9"},
    ],
    ids=["offline", "unreachable"],
)
def test_missing_data_error_comes_in_seconds(tmp_path: Path, extra: dict[str, str]) -> None:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "tasks", "show", "gsm8k", "-n", "1"],
        cwd=ROOT, env=_env(tmp_path, **extra), capture_output=True, text=True, timeout=60,
    )
    seconds = time.monotonic() - start
    assert done.returncode == 2, done.stderr
    assert "no data for task 'gsm8k'" in done.stderr
    assert "openai/gsm8k not tried" in done.stderr
    assert "Traceback" not in done.stderr
    assert seconds < 5, f"the missing-data error took {seconds:.1f} s"


def test_offline_in_process_never_imports_datasets_loader(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    with pytest.raises(DataNotFound, match="HF_HUB_OFFLINE is set and no cached copy"):
        tasks.get("gsm8k").rows("test")


def test_a_hanging_connection_is_given_up_within_the_probe_time(monkeypatch) -> None:
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: time.sleep(30))
    monkeypatch.setattr(hub, "_probes", {})
    start = time.monotonic()
    why = hub.unreachable({"HF_ENDPOINT": "https://hangs.invalid"}, timeout=0.2)
    assert time.monotonic() - start < 2
    assert why == "hangs.invalid did not answer within 0.2 s"


def test_a_failed_probe_is_remembered_so_each_split_does_not_pay_again(monkeypatch) -> None:
    calls = []

    def refuse(address, timeout):
        calls.append(address)
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(hub, "_probes", {})
    env = {"HF_ENDPOINT": "https://example.invalid:8443"}
    assert hub.unreachable(env) == hub.unreachable(env)
    assert calls == [("example.invalid", 8443)]


def test_a_proxy_is_probed_instead_of_the_hub() -> None:
    assert hub._target({"HTTPS_PROXY": "http://proxy.local:8080"}) == ("proxy.local", 8080)
    assert hub._target({}) == ("huggingface.co", 443)


def test_a_cached_copy_is_worth_asking_for_even_offline(tmp_path: Path) -> None:
    env = {"HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path)}
    assert hub.hub_blocked("openai/gsm8k", env)
    (tmp_path / "hub" / "datasets--openai--gsm8k").mkdir(parents=True)
    assert hub.hub_blocked("openai/gsm8k", env) is None
