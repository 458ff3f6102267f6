"""Whether the Hugging Face hub is worth asking for a dataset, decided in about a second.

``datasets.load_dataset`` on a machine without network retries for ~30 s before it fails,
and with ``HF_HUB_OFFLINE=1`` it still costs the ~1-5 s import of ``datasets`` to say so. A
task whose data is missing should say so at once, so before any hub call we check, without
importing ``datasets``: is offline mode set, does a TCP connection to the hub (or the proxy)
open within :data:`PROBE_SECONDS`, and is there a cached copy ``datasets`` could read instead.

>>> hub_blocked("openai/gsm8k", environ={"HF_HUB_OFFLINE": "1", "HF_HOME": "/nonexistent"})
'HF_HUB_OFFLINE is set and no cached copy of openai/gsm8k is in /nonexistent'
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Mapping
from urllib.parse import urlparse

PROBE_SECONDS = 1.0
# a failed probe is remembered this long: one command reads several splits, and each must not
# pay the probe again; a long-lived process still notices the network coming back
_REMEMBER_SECONDS = 60.0
_TRUE = ("1", "true", "yes", "on")

_probes: dict[tuple[str, int], tuple[float, str | None]] = {}
_probes_lock = threading.Lock()


def offline_flag(environ: Mapping[str, str] | None = None) -> str | None:
    """The offline variable that is set (``HF_HUB_OFFLINE``, ``HF_DATASETS_OFFLINE``), if any."""
    env = os.environ if environ is None else environ
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"):
        if env.get(var, "").strip().lower() in _TRUE:
            return var
    return None


def _cache_roots(env: Mapping[str, str]) -> list[str]:
    """Where ``datasets`` and ``huggingface_hub`` keep downloads (their own defaults)."""
    xdg = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    home = env.get("HF_HOME") or os.path.join(xdg, "huggingface")
    return [
        env.get("HF_DATASETS_CACHE") or os.path.join(home, "datasets"),
        env.get("HF_HUB_CACHE") or env.get("HUGGINGFACE_HUB_CACHE") or os.path.join(home, "hub"),
    ]


def cached(hub_id: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether a download of ``hub_id`` sits in the local caches (``owner___name`` under the
    datasets cache, ``datasets--owner--name`` under the hub cache)."""
    env = os.environ if environ is None else environ
    datasets_root, hub_root = _cache_roots(env)
    return os.path.isdir(os.path.join(datasets_root, hub_id.replace("/", "___"))) or os.path.isdir(
        os.path.join(hub_root, "datasets--" + hub_id.replace("/", "--"))
    )


def _target(env: Mapping[str, str]) -> tuple[str, int]:
    """The host a hub request connects to first: the HTTPS proxy when one is set."""
    proxy = next((env[v] for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")
                  if env.get(v)), None)
    if proxy:
        url = urlparse(proxy if "://" in proxy else f"http://{proxy}")
        return url.hostname or proxy, url.port or 3128
    url = urlparse(env.get("HF_ENDPOINT") or "https://huggingface.co")
    return url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)


def _connect(host: str, port: int, timeout: float) -> str | None:
    result: list[str | None] = []

    def attempt() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            result.append(None)
        except Exception as err:  # any failure means: no hub from here
            result.append(f"{host} unreachable ({type(err).__name__}: {err})")

    # getaddrinfo ignores the socket timeout, so the attempt runs in a thread we stop
    # waiting for
    thread = threading.Thread(target=attempt, daemon=True, name="rlvr-hub-probe")
    thread.start()
    thread.join(timeout + 0.25)
    return result[0] if result else f"{host} did not answer within {timeout:g} s"


def unreachable(environ: Mapping[str, str] | None = None,
                timeout: float = PROBE_SECONDS) -> str | None:
    """Why no connection to the hub opens (at most ``timeout`` s, a failure remembered for a
    minute), or None when one does."""
    host, port = _target(os.environ if environ is None else environ)
    now = time.monotonic()
    with _probes_lock:
        seen = _probes.get((host, port))
    if seen is not None and now - seen[0] < _REMEMBER_SECONDS:
        return seen[1]
    why = _connect(host, port, timeout)
    with _probes_lock:
        _probes[(host, port)] = (time.monotonic(), why)
    return why


def hub_blocked(hub_id: str, environ: Mapping[str, str] | None = None) -> str | None:
    """Why asking the hub for ``hub_id`` would only fail, slowly; None when it is worth a
    try (online, or a cached copy that ``datasets`` reads offline)."""
    env = os.environ if environ is None else environ
    if cached(hub_id, env):
        return None
    where = os.path.dirname(_cache_roots(env)[0])
    flag = offline_flag(env)
    if flag:
        return f"{flag} is set and no cached copy of {hub_id} is in {where}"
    why = unreachable(env)
    if why:
        return f"{why}, and no cached copy of {hub_id} is in {where}; not retried"
    return None
