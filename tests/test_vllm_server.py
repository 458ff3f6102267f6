"""VLLMServerEngine against a fake ``vllm serve`` (standard-library HTTP server in a thread),
the worker extension with a fake NCCL communicator, and (GPU, marked ``gpu``) a real
``vllm serve`` subprocess."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from policy_opt.rollout import vllm_server, vllm_worker
from policy_opt.rollout.engine import Engine
from policy_opt.rollout.vllm_server import VLLMServerEngine
from policy_opt.rollout.vllm_worker import WeightSyncExtension

ROOT = Path(__file__).resolve().parents[1]


class Events:
    """What the fake server and the fake communicator saw, in order."""

    def __init__(self):
        self.items: list[tuple] = []
        self.cond = threading.Condition()

    def add(self, *item) -> None:
        with self.cond:
            self.items.append(item)
            self.cond.notify_all()

    def wait_for(self, pred, timeout: float = 5.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: pred(self.items), timeout)

    def kinds(self) -> list[str]:
        return [e[0] for e in self.items]


def _completion(prompt: list[int], max_tokens: int) -> dict:
    # A deterministic function of the prompt: the prompt reversed, cut at max_tokens.
    ids = list(reversed(prompt))[:max_tokens]
    return {"token_ids": ids, "logprobs": [-0.5 * (j + 1) for j in range(len(ids))],
            "finish_reason": "length" if len(ids) == max_tokens else "stop"}


def _broadcasts_since_reset(events: list[tuple]) -> int:
    """Broadcasts of the sync in progress (each sync ends with a prefix-cache reset)."""
    resets = [i for i, e in enumerate(events) if e[0] == "reset"]
    return sum(e[0] == "broadcast" for e in events[resets[-1] + 1 if resets else 0:])


class FakeVLLM:
    """Implements the endpoints VLLMServerEngine uses, recording every request.

    Like the real server, ``init_weight_sync`` / ``receive_weights`` only return once the
    trainer side has joined the group / sent every tensor, so an engine that posts them
    synchronously (instead of in the background) deadlocks here and times out.
    """

    def __init__(self, workers: int = 2, old_vllm: bool = False):
        self.events = Events()
        self.requests: list[tuple[str, object]] = []
        self.workers = workers
        self.old_vllm = old_vllm
        self.fail: tuple[int, dict] | None = None  # every request answers this
        self.missing: set[str] = set()  # worker methods the server lacks
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code: int, body) -> None:
                raw = b"" if body is None else json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def do_GET(self):
                fake.requests.append((self.path, None))
                if self.path == "/v1/models":
                    return self._send(200, {"object": "list", "data": [{"id": "tiny-qwen"}]})
                self._send(404, {"detail": "Not Found"})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                fake.requests.append((self.path, body))
                code, answer = fake.answer(self.path, body)
                self._send(code, answer)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def answer(self, path: str, body):
        if self.fail is not None:
            return self.fail
        if path == "/v1/completions":
            choices = []
            for i, prompt in enumerate(body["prompt"]):
                c = _completion(prompt, body["max_tokens"])
                choice = {"index": i, "text": "", "finish_reason": c["finish_reason"],
                          "logprobs": {"token_logprobs": c["logprobs"],
                                       "tokens": [f"token_id:{t}" for t in c["token_ids"]]}}
                if not self.old_vllm:
                    choice["token_ids"] = c["token_ids"]
                choices.append(choice)
            return 200, {"object": "text_completion", "model": body["model"],
                         "choices": choices[::-1]}  # out of order: the engine maps by index
        if path == "/reset_prefix_cache":
            self.events.add("reset")
            return 200, None
        if path == "/collective_rpc":
            method, args = body["method"], body.get("args", [])
            self.events.add("rpc", method, args)
            if method in self.missing:
                return 500, {"error": {"message": f"AttributeError: Worker has no {method}"}}
            if method == "weight_sync_rank":
                # vLLM returns non-object results as strings.
                return 200, {"results": [str(r) for r in range(self.workers)]}
            if method == "init_weight_sync":
                joined = self.events.wait_for(lambda ev: any(e[0] == "communicator" for e in ev))
                return (200, {"results": [None] * self.workers}) if joined else (
                    500, {"detail": "the trainer never joined the group"})
            if method == "receive_weights":
                n = len(args[0])
                sent = self.events.wait_for(lambda ev: _broadcasts_since_reset(ev) >= n)
                return (200, {"results": [None] * self.workers}) if sent else (
                    500, {"detail": "the trainer never broadcast the weights"})
            return 400, {"detail": f"no method {method}"}
        return 404, {"detail": "Not Found"}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class FakeComm:
    device = torch.device("cpu")

    def __init__(self, events: Events):
        self.events = events

    def broadcast(self, tensor, src, stream=None):
        assert src == 0
        self.events.add("broadcast", tensor.clone())


@pytest.fixture
def fake():
    server = FakeVLLM()
    yield server
    server.close()


def _factory(events: Events):
    def make(host, port, world_size):
        events.add("communicator", host, port, world_size)
        return FakeComm(events)

    return make


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ------------------------------------------------------------------------------ sampling


def test_generate_sends_token_ids_and_parses_in_prompt_order(fake):
    engine = VLLMServerEngine(fake.url)
    assert isinstance(engine, Engine) and engine.model == "tiny-qwen"
    prompts = [[5, 6, 7], [8, 9], [10, 11, 12, 13, 14]]
    gens = engine.generate(prompts, max_new_tokens=4, temperature=0.7, top_p=0.9,
                           stop=["##"], seed=3)
    assert [g.token_ids for g in gens] == [[7, 6, 5], [9, 8], [14, 13, 12, 11]]
    assert [g.finish_reason for g in gens] == ["stop", "stop", "length"]
    assert gens[2].logprobs == [-0.5, -1.0, -1.5, -2.0]
    [(path, body)] = [r for r in fake.requests if r[0] == "/v1/completions"]
    assert body["prompt"] == prompts and body["model"] == "tiny-qwen"
    assert body["max_tokens"] == 4 and body["temperature"] == 0.7 and body["top_p"] == 0.9
    assert body["stop"] == ["##"] and body["include_stop_str_in_output"] is True
    assert body["return_token_ids"] is True and body["logprobs"] == 0 and body["n"] == 1
    assert body["skip_special_tokens"] is False and isinstance(body["seed"], int)


def test_copies_of_a_prompt_go_to_requests_with_different_seeds(fake):
    # vLLM seeds every prompt of a request alike: a GRPO group's copies must be split.
    engine = VLLMServerEngine(fake.url)
    a, b = [1, 2], [3, 4, 5]
    gens = engine.generate([a, a, b, a, b], max_new_tokens=8, seed=11)
    assert [g.token_ids for g in gens] == [[2, 1], [2, 1], [5, 4, 3], [2, 1], [5, 4, 3]]
    sent = [body for path, body in fake.requests if path == "/v1/completions"]
    assert sorted(map(str, (s["prompt"] for s in sent))) == sorted(
        map(str, ([a, b], [a, b], [a])))
    assert len({s["seed"] for s in sent}) == 3
    # Same seed, same requests: reproducible.
    fake.requests.clear()
    engine.generate([a, a, b, a, b], max_new_tokens=8, seed=11)
    again = [body for path, body in fake.requests if path == "/v1/completions"]
    assert sorted(s["seed"] for s in again) == sorted(s["seed"] for s in sent)
    fake.requests.clear()
    engine.generate([a], max_new_tokens=8)  # seed=None: the server draws one
    assert "seed" not in fake.requests[-1][1]


def test_token_ids_fall_back_to_token_id_strings_on_older_servers():
    server = FakeVLLM(old_vllm=True)
    try:
        [g] = VLLMServerEngine(server.url).generate([[4, 3]], max_new_tokens=5)
    finally:
        server.close()
    assert g.token_ids == [3, 4] and g.finish_reason == "stop"


def test_empty_batch_makes_no_request_and_bad_arguments_are_named(fake):
    engine = VLLMServerEngine(fake.url)
    before = len(fake.requests)
    assert engine.generate([], max_new_tokens=4) == []
    assert len(fake.requests) == before
    with pytest.raises(ValueError, match="max_new_tokens"):
        engine.generate([[1]], max_new_tokens=0)
    with pytest.raises(ValueError, match="top_p"):
        engine.generate([[1]], max_new_tokens=2, top_p=0)
    with pytest.raises(ValueError, match="url"):
        VLLMServerEngine("127.0.0.1:8000")


def test_unreachable_server_is_a_quick_clear_error():
    url = f"http://127.0.0.1:{_closed_port()}"
    start = time.perf_counter()
    with pytest.raises(ConnectionError) as info:
        VLLMServerEngine(url)
    assert time.perf_counter() - start < 5
    assert url in str(info.value)
    assert "VLLM_SERVER_DEV_MODE=1 vllm serve" in str(info.value)
    assert "--worker-extension-cls policy_opt.rollout.vllm_worker.WeightSyncExtension" in str(info.value)


def test_a_server_that_never_answers_times_out():
    # Accepts connections (the kernel's backlog) but never reads or answers.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        start = time.perf_counter()
        with pytest.raises(ConnectionError, match="within"):
            VLLMServerEngine(url, timeout=0.5)
        assert time.perf_counter() - start < 5


@pytest.mark.parametrize("body", [
    {"error": {"message": "boom: prompt too long", "type": "BadRequestError", "code": 400}},
    {"object": "error", "message": "boom: prompt too long", "type": "BadRequestError"},
])
def test_server_errors_carry_the_servers_message(fake, body):
    engine = VLLMServerEngine(fake.url)
    fake.fail = (500, body)
    with pytest.raises(RuntimeError, match="HTTP 500: boom: prompt too long"):
        engine.generate([[1, 2]], max_new_tokens=2)


# ------------------------------------------------------------------------------ weights


def _tiny_model() -> torch.nn.Module:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Linear(2, 4, bias=False))
    model[1].to(torch.bfloat16)
    return model


def test_sync_weights_posts_init_once_then_broadcasts_in_metadata_order(fake):
    model = _tiny_model()
    engine = VLLMServerEngine(fake.url, sync_port=40123, communicator_factory=_factory(fake.events))
    engine.sync_weights(model)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(1.0)
    engine.sync_weights(model)

    ev = fake.events.items
    rpcs = [e[1:] for e in ev if e[0] == "rpc"]
    assert [m for m, _ in rpcs] == ["weight_sync_rank", "init_weight_sync", "receive_weights",
                                    "receive_weights"]
    # World: the trainer plus the server's 2 workers; a local server is reached on 127.0.0.1.
    assert rpcs[1][1] == ["127.0.0.1", 40123, 3]
    assert [e[1:] for e in ev if e[0] == "communicator"] == [("127.0.0.1", 40123, 3)]
    want_meta = [["0.weight", "float32", [2, 3]], ["0.bias", "float32", [2]],
                 ["1.weight", "bfloat16", [4, 2]]]
    assert rpcs[2][1] == [want_meta] and rpcs[3][1] == [want_meta]
    sent = [e[1] for e in ev if e[0] == "broadcast"]
    state = list(model.state_dict().values())
    assert len(sent) == 6
    for got, want in zip(sent[3:], state):  # the second sync sent the updated values
        assert got.dtype == want.dtype and torch.equal(got, want)
    for got, want in zip(sent[:3], state):
        assert torch.equal(got + 1, want)
    # The prefix cache is reset after each sync's broadcasts, never before.
    kinds = fake.events.kinds()
    assert kinds.count("reset") == 2
    first_reset = kinds.index("reset")
    assert kinds[:first_reset].count("broadcast") == 3
    assert kinds.index("communicator") < kinds.index("broadcast")
    assert kinds[-1] == "reset"


def test_a_rank_that_does_not_send_only_samples(fake):
    engine = VLLMServerEngine(fake.url, send_weights=False,
                              communicator_factory=_factory(fake.events))
    engine.sync_weights(_tiny_model())
    assert fake.events.items == []


def test_a_server_without_the_extension_is_a_clear_error(fake):
    fake.missing = {"weight_sync_rank", "init_weight_sync", "receive_weights"}
    engine = VLLMServerEngine(fake.url, communicator_factory=_factory(fake.events))
    with pytest.raises(RuntimeError) as info:
        engine.sync_weights(_tiny_model())
    msg = str(info.value)
    assert "Worker has no weight_sync_rank" in msg and "--worker-extension-cls" in msg
    assert not any(e[0] == "communicator" for e in fake.events.items)


def test_trainer_with_vllm_server_syncs_at_start_and_after_each_step(tiny_model, tmp_path,
                                                                     monkeypatch):
    from policy_opt.train import main

    server = FakeVLLM(workers=1)
    monkeypatch.setattr(vllm_server, "_default_communicator", _factory(server.events))
    try:
        assert main(["--model", str(tiny_model), "--env", "arithmetic", "--out",
                     str(tmp_path / "run"), "--prompts-per-step", "2", "--group-size", "3",
                     "--max-new-tokens", "6", "--eval-prompts", "2", "--eval-k", "2",
                     "--threads", "1", "--env-workers", "1", "--max-steps", "1",
                     "--engine", "vllm-server", "--vllm-url", server.url]) == 0
    finally:
        server.close()
    rpcs = [e[1] for e in server.events.items if e[0] == "rpc"]
    assert rpcs == ["weight_sync_rank", "init_weight_sync", "receive_weights", "receive_weights"]
    from safetensors.torch import load_file

    names = [m[0] for m in next(e[2][0] for e in server.events.items
                                if e[:2] == ("rpc", "receive_weights"))]
    assert set(names) >= set(load_file(str(tiny_model / "model.safetensors")))
    # Rollouts and evaluations sampled on the server, with token-id prompts.
    completions = [b for p, b in server.requests if p == "/v1/completions"]
    assert completions and all(isinstance(b["prompt"][0][0], int) for b in completions)


def test_trainer_with_an_unreachable_server_is_a_clear_error(tiny_model, tmp_path, capsys):
    from policy_opt.train import main

    url = f"http://127.0.0.1:{_closed_port()}"
    assert main(["--model", str(tiny_model), "--env", "arithmetic", "--out",
                 str(tmp_path / "run"), "--engine", "vllm-server", "--vllm-url", url]) == 2
    err = capsys.readouterr().err
    assert "--engine vllm-server" in err and url in err


# ------------------------------------------------------------------------------ worker side


class _Recorder:
    def __init__(self):
        self.loaded: list[tuple[str, torch.Tensor]] = []

    def load_weights(self, weights):
        for name, t in weights:
            if name == "bad":
                raise ValueError("no such parameter")
            self.loaded.append((name, t.clone()))


class _Sender:
    """Plays the trainer: each broadcast fills the worker's buffer with the next tensor."""

    def __init__(self, tensors):
        self.tensors = list(tensors)
        self.received = 0

    def broadcast(self, tensor, src, stream=None):
        assert src == 0
        tensor.copy_(self.tensors.pop(0))
        self.received += 1


def _worker(tensors, rank=0):
    ext = WeightSyncExtension()
    ext.rank, ext.device = rank, torch.device("cpu")
    ext.model_runner = SimpleNamespace(model=_Recorder())
    ext._weight_sync_comm = _Sender(tensors)
    return ext


def test_worker_receives_and_loads_each_tensor_in_order():
    a = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    b = torch.tensor([1.5, -2.0], dtype=torch.bfloat16)
    ext = _worker([a, b])
    ext.receive_weights([["w.a", "float32", [2, 3]], ["w.b", "bfloat16", [2]]])
    loaded = ext.model_runner.model.loaded
    assert [n for n, _ in loaded] == ["w.a", "w.b"]
    assert torch.equal(loaded[0][1], a) and torch.equal(loaded[1][1], b)
    assert loaded[1][1].dtype == torch.bfloat16


def test_worker_keeps_receiving_after_a_failed_load_then_raises():
    ext = _worker([torch.ones(2), torch.ones(2), torch.ones(2)])
    with pytest.raises(RuntimeError, match="bad"):
        ext.receive_weights([["x", "float32", [2]], ["bad", "float32", [2]],
                             ["y", "float32", [2]]])
    assert ext._weight_sync_comm.received == 3  # the trainer is never left blocked


def test_worker_refuses_bad_metadata_before_receiving():
    ext = _worker([torch.ones(2)])
    with pytest.raises(ValueError, match="torch dtype"):
        ext.receive_weights([["x", "os.system", [2]]])
    assert ext._weight_sync_comm.received == 0


def test_worker_joins_as_rank_one_plus_its_own(monkeypatch):
    calls = []
    monkeypatch.setattr(vllm_worker, "nccl_communicator",
                        lambda *args: calls.append(args) or "comm")
    ext = _worker([], rank=2)
    ext.init_weight_sync("10.0.0.1", "51216", 5)
    assert calls == [("10.0.0.1", 51216, 3, 5, torch.device("cpu"))]
    assert ext._weight_sync_comm == "comm" and ext.weight_sync_rank() == 2


# ------------------------------------------------------------------------------ GPU


def _vllm_ready(gpus: int) -> bool:
    if not torch.cuda.is_available() or torch.cuda.device_count() < gpus:
        return False
    try:
        import vllm  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture
def served_model(tmp_path):
    """A tiny Qwen2 saved to disk and served by ``vllm serve`` on GPU 0."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from policy_opt.models import default_tokenizer

    tok = default_tokenizer()
    torch.manual_seed(0)
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, intermediate_size=128,
                      max_position_embeddings=256, tie_word_embeddings=True,
                      eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                      initializer_range=0.3)
    policy = Qwen2ForCausalLM(cfg)
    policy.save_pretrained(tmp_path / "m")
    tok.save_pretrained(tmp_path / "m")
    port = _closed_port()
    env = {**os.environ, "VLLM_SERVER_DEV_MODE": "1", "CUDA_VISIBLE_DEVICES": "0",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    log = open(tmp_path / "server.log", "w")  # noqa: SIM115  (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "vllm.entrypoints.cli.main", "serve", str(tmp_path / "m"),
         "--host", "127.0.0.1", "--port", str(port), "--dtype", "float32", "--enforce-eager",
         "--max-model-len", "256", "--gpu-memory-utilization", "0.2",
         "--worker-extension-cls", "policy_opt.rollout.vllm_worker.WeightSyncExtension"],
        env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 300
        while True:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()[-4000:]
            try:
                urllib.request.urlopen(url + "/v1/models", timeout=2).read()
                break
            except OSError:
                assert time.time() < deadline, "vllm serve did not start in 300 s"
                time.sleep(2)
        yield SimpleNamespace(url=url, policy=policy, tok=tok)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _greedy(engine, prompts):
    return [g.token_ids for g in engine.generate(prompts, max_new_tokens=8, temperature=0)]


@pytest.mark.gpu
@pytest.mark.skipif(not _vllm_ready(1), reason="needs a CUDA GPU and vLLM")
def test_vllm_server_generates_like_transformers(served_model):
    from policy_opt.rollout.engine import TransformersEngine

    tok = served_model.tok
    prompts = [tok.encode(p, add_special_tokens=False) for p in ("What is 3+4?", "hi")]
    engine = VLLMServerEngine(served_model.url)
    hf = TransformersEngine(served_model.policy.cuda().eval(), tok)
    gens = engine.generate(prompts * 2, max_new_tokens=8, temperature=0)
    assert [g.token_ids for g in gens] == _greedy(hf, prompts * 2)
    assert all(g.logprobs is not None and len(g.logprobs) == len(g.token_ids) for g in gens)
    # The dev-mode endpoints the weight sync relies on answer, and the extension is loaded.
    assert engine._rpc("weight_sync_rank") == ["0"]
    engine._call("POST", "/reset_prefix_cache")


@pytest.mark.gpu
@pytest.mark.skipif(not _vllm_ready(2), reason="needs 2 CUDA GPUs (NCCL cannot pair two "
                    "processes on one GPU) and vLLM")
def test_vllm_server_follows_the_trainer_after_sync_weights(served_model):
    from policy_opt.rollout.engine import TransformersEngine

    tok = served_model.tok
    prompts = [tok.encode(p, add_special_tokens=False) for p in ("What is 3+4?", "hi", "12+30?")]
    torch.cuda.set_device(1)  # the server holds GPU 0
    policy = served_model.policy.to("cuda:1").eval()
    hf = TransformersEngine(policy, tok)
    engine = VLLMServerEngine(served_model.url)
    before = _greedy(engine, prompts)
    assert before == _greedy(hf, prompts)
    with torch.no_grad():  # a different policy: the server must follow it after the sync
        for p in policy.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    engine.sync_weights(policy)
    after = _greedy(engine, prompts)
    assert after == _greedy(hf, prompts)
    assert after != before
