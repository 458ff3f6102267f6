"""Rollouts on a separate ``vllm serve`` process: sampling over HTTP, weights over NCCL.

The server is vLLM's own CLI, launched by the user (on other GPUs, or another node)::

    VLLM_SERVER_DEV_MODE=1 vllm serve MODEL --tensor-parallel-size 4 \\
        --worker-extension-cls policy_opt.rollout.vllm_worker.WeightSyncExtension

:class:`VLLMServerEngine` speaks to it with the standard library only:

* ``generate``: ``POST /v1/completions`` with token-id prompts and ``return_token_ids``, so
  the sampled ids come back verbatim (no detokenize/re-tokenize round trip).
* ``sync_weights``: the pattern of vLLM's RLHF examples. The first call makes an NCCL group of
  this process (rank 0) and the server's workers (ranks 1..N): ``POST /collective_rpc``
  ``init_weight_sync`` in a background thread while this process joins. Each sync then posts
  ``receive_weights`` with every tensor's (name, dtype, shape) in a background thread,
  broadcasts the tensors in that order, and resets the server's prefix cache (its cached
  keys/values were computed with the old weights). Nothing is written to disk.

Needs vLLM >= 0.10.2 on the server: ``/collective_rpc`` (vLLM PR #23075) and
``return_token_ids`` (PR #22587) arrived in 0.10.2; ``VLLM_SERVER_DEV_MODE=1`` exposes
``/collective_rpc`` and ``/reset_prefix_cache``, unauthenticated: keep the port on localhost
or a trusted network. Sending weights also needs vLLM (its NCCL communicator) and a CUDA GPU
in the trainer's process; sampling alone needs neither.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from policy_opt.rollout.engine import FINISH_LENGTH, FINISH_STOP, Generation, check_sampling_args

EXTENSION = "policy_opt.rollout.vllm_worker.WeightSyncExtension"
# Requests in flight at once from one generate call (each holds one round of prompts).
MAX_CONCURRENT = 64


def launch_command(url: str = "http://127.0.0.1:8000") -> str:
    """The ``vllm serve`` command this engine expects behind ``url``."""
    port = urllib.parse.urlsplit(url).port or 8000
    return (f"VLLM_SERVER_DEV_MODE=1 vllm serve MODEL --port {port} "
            f"--worker-extension-cls {EXTENSION}")


def _default_communicator(host: str, port: int, world_size: int) -> Any:
    import torch

    if not torch.cuda.is_available():
        raise RuntimeError("sending weights to the vLLM server goes over NCCL and needs a CUDA "
                           "GPU in the trainer's process")
    try:
        from policy_opt.rollout.vllm_worker import nccl_communicator

        return nccl_communicator(host, port, 0, world_size,
                                 torch.device("cuda", torch.cuda.current_device()))
    except ImportError as err:
        raise ImportError("sending weights to the vLLM server uses vLLM's NCCL communicator: "
                          "install vLLM in the trainer's environment too "
                          "(`pip install 'rlvr-toolkit[vllm]'`)") from err


class VLLMServerEngine:
    """Sample from a running ``vllm serve`` and keep its weights equal to the trainer's.

    Args:
        url: the server's base URL (``http://host:port``, without ``/v1``).
        timeout: seconds one HTTP call may wait for its answer (a generate call waits for
            all its completions; the first contact waits at most 10 s).
        sync_port: the TCP port this process opens for the NCCL rendezvous (the server's
            workers connect to it).
        sync_host: this machine's address as the server sees it; default: 127.0.0.1 for a
            local server, else the address of the interface that routes to it.
        send_weights: whether this process sends weights. Under torchrun every rank builds
            an engine and calls ``sync_weights`` (FSDP-sharded tensors are gathered with a
            collective all ranks join, and a barrier at the end keeps ranks from sampling
            during a sync), but only rank 0 sends.
        communicator_factory: ``(host, port, world_size) -> communicator`` with
            ``broadcast(tensor, src=0, stream=None)`` and a ``device`` attribute; default:
            vLLM's ``PyNcclCommunicator`` on the current CUDA device (tests pass a fake).

    ``generate`` follows the :class:`~policy_opt.rollout.engine.Engine` protocol. Log-probs are the
    server's: raw model log-probs by default (temperature not applied); launch it with
    ``--logprobs-mode processed_logprobs`` for ``log_softmax(logits / temperature)``.
    Raises ``ConnectionError`` (with the launch command) when the server cannot be reached
    and ``RuntimeError`` with the server's message when it answers with an error.

    Example:
        >>> engine = VLLMServerEngine("http://127.0.0.1:8000")          # doctest: +SKIP
        >>> engine.sync_weights(policy)                                   # doctest: +SKIP
        >>> engine.generate([[258, 117]], max_new_tokens=8, seed=0)       # doctest: +SKIP
    """

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000",
        *,
        timeout: float = 600.0,
        sync_port: int = 51216,
        sync_host: str | None = None,
        send_weights: bool = True,
        communicator_factory: Callable[[str, int, int], Any] | None = None,
    ):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"url must look like http://host:port, got {url!r}")
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0, got {timeout}")
        self.url = url.rstrip("/")
        self.timeout = float(timeout)
        self.sync_port = int(sync_port)
        self.sync_host = sync_host
        self.send_weights = send_weights
        self._factory = communicator_factory or _default_communicator
        self._comm: Any = None
        models = self._call("GET", "/v1/models", timeout=min(self.timeout, 10.0))
        try:
            self.model = str(models["data"][0]["id"])
        except (KeyError, IndexError, TypeError) as err:
            raise RuntimeError(f"{self.url}/v1/models did not list a model: {models!r}") from err

    # ---------------------------------------------------------------- sampling

    def generate(
        self,
        prompts: list[list[int]],
        *,
        max_new_tokens: int,
        temperature: float = 1.0,
        top_p: float = 1.0,
        stop: Sequence[str] = (),
        seed: int | None = None,
    ) -> list[Generation]:
        """Sample one completion per prompt on the server; stop-string tokens are kept.

        vLLM seeds every prompt of a request alike, so copies of one prompt (a GRPO group)
        would all sample the same completion: the k-th copy of each prompt goes into round
        k, one request per round with its own seed derived from ``seed``. Rounds are sent
        concurrently and batched together by the server.
        """
        check_sampling_args(prompts, max_new_tokens, temperature, top_p, stop)
        if not prompts:
            return []
        rounds: list[list[int]] = []
        copies: dict[tuple[int, ...], int] = {}
        for i, p in enumerate(prompts):
            k = copies.get(tuple(p), 0)
            copies[tuple(p)] = k + 1
            if k == len(rounds):
                rounds.append([])
            rounds[k].append(i)
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_new_tokens,
            "temperature": float(temperature),
            "top_p": float(top_p),
            "n": 1,
            "logprobs": 0,  # the sampled token's own log-prob
            "return_token_ids": True,  # vLLM >= 0.10.2: choices[i].token_ids
            "return_tokens_as_token_ids": True,  # older: logprobs.tokens as "token_id:N"
            "include_stop_str_in_output": True,
            "skip_special_tokens": False,
        }
        if stop:
            body["stop"] = list(stop)

        def run(k: int) -> list[Any]:
            request = {**body, "prompt": [list(prompts[i]) for i in rounds[k]]}
            if seed is not None:
                request["seed"] = random.Random(f"{seed}:{k}").randrange(2**31)
            choices = self._call("POST", "/v1/completions", request)["choices"]
            if len(choices) != len(rounds[k]):
                raise RuntimeError(f"{self.url}/v1/completions returned {len(choices)} choices "
                                   f"for {len(rounds[k])} prompts")
            return choices

        out: list[Generation | None] = [None] * len(prompts)
        with ThreadPoolExecutor(max_workers=min(len(rounds), MAX_CONCURRENT)) as pool:
            for k, choices in enumerate(pool.map(run, range(len(rounds)))):
                for choice in choices:
                    out[rounds[k][choice["index"]]] = _generation(choice)
        return out  # type: ignore[return-value]  # every slot was filled above

    # ---------------------------------------------------------------- weights

    def sync_weights(self, model: Any) -> None:
        """Send ``model``'s parameters and buffers to the server in memory (see the module
        docstring for the protocol); every torchrun rank must call it (see ``send_weights``)."""
        import torch

        state = model.state_dict()
        # A DTensor (FSDP2 shard) reports its full shape; dtype names are torch's.
        metadata = [[name, str(t.dtype).removeprefix("torch."), list(t.shape)]
                    for name, t in state.items()]
        if self.send_weights:
            if self._comm is None:
                self._comm = self._connect()
            receiving = _Background(self._rpc, "receive_weights", [metadata])
        device = getattr(self._comm, "device", None)
        for t in state.values():
            # FSDP2: gathering a shard is a collective every rank joins, in the same order.
            full = t.full_tensor() if hasattr(t, "full_tensor") else t
            if self.send_weights:
                from policy_opt.rollout.vllm_worker import broadcast

                with torch.no_grad():
                    full = full.detach().to(device or full.device).contiguous()
                broadcast(self._comm, full)
        if self.send_weights:
            receiving.result(self.timeout)
            # The cached prefixes hold keys/values computed with the old weights.
            self._call("POST", "/reset_prefix_cache")
        if torch.distributed.is_available() and torch.distributed.is_initialized():
            torch.distributed.barrier()  # no rank samples before the server has the weights

    def _connect(self) -> Any:
        try:
            ranks = self._rpc("weight_sync_rank")
        except RuntimeError as err:
            raise RuntimeError(
                f"the vLLM server at {self.url} cannot receive weights ({err}); launch it with "
                f"the weight-sync extension and dev mode: {launch_command(self.url)}") from err
        try:  # vLLM hands back non-JSON-object results as strings: "0", "1", ...
            ranks = sorted(int(r) for r in ranks)
        except (TypeError, ValueError):
            ranks = None
        if not ranks or ranks != list(range(len(ranks))):
            raise RuntimeError(f"unexpected worker ranks from {self.url}: {ranks!r} (one "
                               "tensor-parallel vLLM engine per server is supported)")
        world = 1 + len(ranks)
        host = self.sync_host or _address_towards(urllib.parse.urlsplit(self.url).hostname)
        # The workers block in the rendezvous until this process joins it: post, then join.
        joining = _Background(self._rpc, "init_weight_sync", [host, self.sync_port, world])
        comm = self._factory(host, self.sync_port, world)
        joining.result(self.timeout)
        return comm

    # ---------------------------------------------------------------- HTTP

    def _rpc(self, method: str, args: list[Any] | None = None) -> Any:
        """Run ``method`` on every server worker; one result per worker (None if none)."""
        out = self._call("POST", "/collective_rpc", {"method": method, "args": args or []})
        return None if out is None else out.get("results")

    def _call(self, verb: str, path: str, body: Any = None, timeout: float | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=verb,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"the vLLM server answered {verb} {path} with HTTP {err.code}: "
                               f"{_error_message(err.read())}") from err
        except (urllib.error.URLError, OSError) as err:  # refused, unresolvable, timed out
            reason = getattr(err, "reason", err)
            what = (f"no answer to {verb} {path} within {timeout or self.timeout:g} s"
                    if isinstance(reason, TimeoutError) else str(reason))
            raise ConnectionError(
                f"cannot reach the vLLM server at {self.url} ({what}). Start it first and wait "
                f"for 'Application startup complete', e.g.:\n  {launch_command(self.url)}"
            ) from err
        return json.loads(raw) if raw.strip() else None


def _generation(choice: dict[str, Any]) -> Generation:
    logprobs = choice.get("logprobs") or {}
    ids = choice.get("token_ids")
    if ids is None:  # vLLM < 0.10.2 ignores return_token_ids
        tokens = logprobs.get("tokens") or []
        if not all(isinstance(t, str) and t.startswith("token_id:") for t in tokens):
            raise RuntimeError("the vLLM server returned no token ids (needs vLLM >= 0.10.2)")
        ids = [int(t.removeprefix("token_id:")) for t in tokens]
    lps = logprobs.get("token_logprobs")
    lps = [float(x) for x in lps] if lps is not None and len(lps) == len(ids) else None
    reason = FINISH_LENGTH if choice.get("finish_reason") == "length" else FINISH_STOP
    return Generation([int(t) for t in ids], lps, reason)


def _error_message(raw: bytes) -> str:
    """The message of a vLLM / FastAPI error body, else the body itself."""
    try:
        body = json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace").strip() or "(empty body)"
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and "message" in err:
            return str(err["message"])
        for key in ("message", "detail"):
            if key in body:
                return str(body[key])
    return json.dumps(body)


def _address_towards(host: str | None) -> str:
    """This machine's address on the route to ``host``."""
    if host in (None, "localhost", "127.0.0.1", "::1"):
        return "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect((host, 9))  # UDP connect sends nothing; it only picks the route
            return sock.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())


class _Background:
    """Run ``fn(*args)`` in a daemon thread; ``result()`` joins it and re-raises its error."""

    def __init__(self, fn: Callable[..., Any], *args: Any):
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn, args), daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        try:
            self._value = fn(*args)
        except BaseException as err:  # handed to the caller by result()
            self._error = err

    def result(self, timeout: float) -> Any:
        self._thread.join(timeout)
        if self._thread.is_alive():
            raise TimeoutError(f"the vLLM server did not answer within {timeout:.0f} s")
        if self._error is not None:
            raise self._error
        return self._value
