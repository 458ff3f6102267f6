"""torchrun data parallelism: 2 CPU ranks (gloo), DDP and FSDP2, equal a single process on
the same batch; an FSDP2 run resumed from a checkpoint repeats the uninterrupted run."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import torch

WORKER = Path(__file__).with_name("distributed_worker.py")
ROOT = Path(__file__).resolve().parents[1]


def _flags(model: Path, out: Path, algo: str = "grpo") -> list[str]:
    return ["--model", str(model), "--env", "arithmetic", "--out", str(out), "--max-steps", "2",
            "--prompts-per-step", "4", "--group-size", "4", "--max-new-tokens", "8",
            "--mu", "2", "--eval-every", "0", "--eval-prompts", "2", "--eval-k", "2",
            "--threads", "1", "--env-workers", "1", "--lr", "1e-2", "--algo", algo,
            # exercises the clock broadcast; 10 minutes never runs out in 2 steps
            "--max-minutes", "10", "--lr-schedule", "cosine",
            # grpo with a KL term: the reference model (sharded too under FSDP2) takes part
            *(["--beta", "0.04"] if algo == "grpo" else [])]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _kill_tree(proc: subprocess.Popen, dump: Path) -> str:
    """Kill ``proc`` and every process under it; return the stacks the workers dumped.

    torchrun starts each rank in a session of its own, so killing torchrun's process group
    leaves the ranks running (and holding its pipes). The worker dumps every thread's stack on
    SIGUSR1 (tests/distributed_worker.py): a hang says where it hung."""
    import time

    import psutil

    try:
        tree = psutil.Process(proc.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        tree = []
    for p in tree:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.send_signal(signal.SIGUSR1)
    time.sleep(2)
    for p in [*tree, psutil.Process(proc.pid)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            p.kill()
    proc.wait()
    return "".join(f"--- {f.name}\n{f.read_text()}" for f in sorted(dump.glob("stack-*.txt")))


def _run(cmd: list[str], cwd: Path, timeout: float) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    # The output goes to files, not pipes: a rank that outlived its launcher would hold a pipe
    # open. The launches of one test share pytest-timeout's 300 s; should that fire first,
    # the `finally` still kills the whole tree.
    with open(cwd / "stdout.txt", "w+") as out, open(cwd / "stderr.txt", "w+") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err, text=True,
                                start_new_session=True)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            stacks = _kill_tree(proc, cwd)
            pytest.fail(f"{cmd[0]} did not finish in {timeout} s:\n"
                        f"{_tail(out)}{_tail(err)}\n{stacks}")
        finally:
            if proc.poll() is None:
                _kill_tree(proc, cwd)
        assert proc.returncode == 0, _tail(out) + _tail(err)


def _tail(fh) -> str:
    fh.seek(0)
    return fh.read()[-3000:]


def _launch(dump: Path, flags: list[str], ranks: int, worker_args: tuple[str, ...] = (),
            timeout: float = 170) -> None:
    """Run the worker in one process (ranks=1) or under torchrun with ``ranks`` gloo ranks."""
    dump.mkdir(parents=True, exist_ok=True)
    if ranks == 1:
        _run([sys.executable, str(WORKER), str(dump), *worker_args, "--", *flags], dump,
             timeout)
        return
    torchrun = shutil.which("torchrun")
    launcher = [torchrun] if torchrun else [sys.executable, "-m", "torch.distributed.run"]
    _run([*launcher, "--nproc_per_node", str(ranks), "--master_addr", "127.0.0.1",
          "--master_port", str(_free_port()), str(WORKER), str(dump), *worker_args,
          "--", *flags], dump, timeout)


def _records(run: Path, kind: str) -> list[dict]:
    lines = (run / "metrics.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["kind"] == kind]


@pytest.fixture(scope="module")
def single_runs(tiny_model, tmp_path_factory):
    """One single-process run per algorithm, shared by the DDP and FSDP2 comparisons."""
    runs: dict[str, Path] = {}

    def get(algo: str) -> Path:
        if algo not in runs:
            dump = tmp_path_factory.mktemp(f"single-{algo}")
            # setup and test share 300 s: 110 here, 170 for the two-rank launch
            _launch(dump, _flags(tiny_model, dump / "run", algo), ranks=1, timeout=110)
            runs[algo] = dump
        return runs[algo]

    return get


def _assert_equals_single(single: Path, multi: Path, start_model: Path) -> None:
    one = torch.load(single / "params-rank0.pt")
    r0 = torch.load(multi / "params-rank0.pt")
    r1 = torch.load(multi / "params-rank1.pt")
    from safetensors.torch import load_file

    start = load_file(str(start_model / "model.safetensors"))
    moved = max((one[k] - start[k]).abs().max().item() for k in start)
    # Adam turns float-rounding differences of the reduced gradient into parameter
    # differences of ~1e-5 here, against a movement of ~1e-2: compare at that scale.
    assert moved > 1e-3, "the update did nothing: the comparison would be vacuous"
    assert set(r0) == set(one)
    for k in one:
        assert torch.equal(r0[k], r1[k]), f"ranks disagree on {k}"
        torch.testing.assert_close(r0[k], one[k], rtol=1e-4, atol=1e-4, msg=k)
    # The logged losses (rank means) are the single process's, step by step.
    losses = [r["loss"] for r in _records(single / "run", "train")]
    assert len(losses) == 2 and any(abs(x) > 1e-6 for x in losses), losses
    torch.testing.assert_close([r["loss"] for r in _records(multi / "run", "train")], losses,
                               rtol=1e-4, atol=1e-6)
    # Only rank 0 wrote the run's outputs.
    assert (multi / "run" / "metrics.jsonl").is_file()
    assert (multi / "run" / "checkpoints" / "latest").read_text().strip() == "step-000002"


@pytest.mark.slow
def test_two_gloo_ranks_equal_one_process(tiny_model, single_runs, tmp_path):
    multi = tmp_path / "ddp"
    _launch(multi, _flags(tiny_model, multi / "run"), ranks=2)
    _assert_equals_single(single_runs("grpo"), multi, tiny_model)


@pytest.mark.slow
@pytest.mark.parametrize("algo", ["gspo", "grpo"])
def test_fsdp_two_gloo_ranks_equal_one_process(tiny_model, single_runs, tmp_path, algo):
    multi = tmp_path / "fsdp"
    _launch(multi, [*_flags(tiny_model, multi / "run", algo), "--strategy", "fsdp"], ranks=2)
    _assert_equals_single(single_runs(algo), multi, tiny_model)
    # The checkpoint holds full (unsharded) tensors under the model's own names.
    from safetensors.torch import load_file

    saved = load_file(str(multi / "run" / "checkpoints" / "step-000002" / "model.safetensors"))
    final = torch.load(multi / "params-rank0.pt")
    # ... and the LM head tied to the embedding once, as save_pretrained writes it.
    assert set(saved) == set(final) - {"lm_head.weight"}
    for k, v in saved.items():
        assert torch.equal(v, final[k]), k


def _readme_fsdp_flags(out: Path) -> list[str]:
    """README 'Scaling', the CPU-scale FSDP2 command: the default model decoding its own
    rollouts (the unsharded path) on arithmetic, where it answers some prompts right."""
    return ["--env", "arithmetic", "--algo", "gspo", "--max-steps", "2", "--strategy", "fsdp",
            "--prompts-per-step", "4", "--group-size", "8", "--eval-prompts", "2",
            "--eval-k", "2", "--threads", "1", "--save-every", "1", "--lr", "1e-3",
            "--out", str(out)]


@pytest.mark.slow
def test_prompts_not_divisible_by_ranks_is_a_one_line_error(tmp_path):
    torchrun = shutil.which("torchrun")
    launcher = [torchrun] if torchrun else [sys.executable, "-m", "torch.distributed.run"]
    cmd = [*launcher, "--nproc_per_node", "2", "--master_addr", "127.0.0.1", "--master_port",
           str(_free_port()), "-m", "policy_opt.train", "--strategy", "fsdp",
           "--prompts-per-step", "3", "--out", str(tmp_path / "run")]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"a bad layout hung instead of failing:\n{proc.communicate()[0][-3000:]}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode != 0
    assert ("error: --prompts-per-step (3) must be divisible by the number of ranks (2)"
            in out), out[-3000:]
    assert "[rank0]: Traceback" not in out and "[rank1]: Traceback" not in out


def test_readme_shows_the_fsdp_command_the_tests_run():
    readme = (ROOT / "README.md").read_text()
    command = ("torchrun --nproc_per_node 2 -m policy_opt.train "
               + " ".join(_readme_fsdp_flags(Path("runs/fsdp-cpu"))))
    assert command in readme.splitlines()


@pytest.mark.slow
def test_fsdp_resume_repeats_the_uninterrupted_run(tmp_path):
    """Two FSDP2 ranks decoding with the policy itself: the run resumed from its step-1
    checkpoint ends where the uninterrupted run ended, bit for bit."""
    from policy_opt.models import default_model_path

    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    _launch(whole, _readme_fsdp_flags(whole / "run"), ranks=2, worker_args=("--model-engine",),
            timeout=140)
    # The resumed run starts from a copy of the run folder as it was after step 1.
    shutil.copytree(whole / "run", resumed / "run")
    ckpts = resumed / "run" / "checkpoints"
    shutil.rmtree(ckpts / "step-000002")
    (ckpts / "latest").write_text("step-000001\n")
    _launch(resumed, [*_readme_fsdp_flags(resumed / "run"), "--resume"], ranks=2,
            worker_args=("--model-engine",), timeout=140)

    a = torch.load(whole / "params-rank0.pt")
    b = torch.load(resumed / "params-rank0.pt")
    from safetensors.torch import load_file

    start = load_file(str(default_model_path(build=False) / "model.safetensors"))
    assert max((a[k] - start[k]).abs().max().item() for k in start) > 1e-3
    for k in a:
        assert torch.equal(a[k], b[k]), f"the resumed run ends elsewhere on {k}"
    for kind in ("train", "eval"):
        assert _untimed(_records(resumed / "run", kind)) == _untimed(_records(whole / "run", kind))


def _untimed(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if not (k.startswith("time") or k == "tokens_per_s")}
            for r in records]


# ------------------------------------------------- in one process: a one-rank process group


@pytest.fixture
def one_rank_group():
    """A one-rank gloo process group, so FSDP2 shards (trivially) inside the test process."""
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{_free_port()}", rank=0,
                            world_size=1)
    try:
        yield
    finally:
        dist.destroy_process_group()


def _tiny_pair(tiny_model: Path):
    from policy_opt.models import load_policy

    plain, tok = load_policy(str(tiny_model), dtype=torch.float32, device=torch.device("cpu"))
    sharded, _ = load_policy(str(tiny_model), dtype=torch.float32, device=torch.device("cpu"))
    return plain, sharded, tok


def test_rollouts_decode_sharded_model_with_full_parameters(tiny_model, one_rank_group):
    """The rollout engine (prefill through the FSDP2 root, then the KV decoder reading the
    layers' parameters directly) samples what the unsharded model samples, and the
    parameters are sharded again afterwards."""
    from torch.distributed.tensor import DTensor

    from policy_opt.rollout.engine import TransformersEngine
    from policy_opt.training.distributed import DistInfo, shard_model, unsharded

    plain, sharded, tok = _tiny_pair(tiny_model)
    shard_model(sharded)
    prompts = [[5, 6, 7, 8], [5, 6, 7, 8], [9, 10]]
    want = TransformersEngine(plain, tok).generate(prompts, max_new_tokens=6, seed=3)
    engine = TransformersEngine(sharded, tok)
    for _ in range(2):  # the second rollout starts from parameters resharded by the first
        with unsharded(sharded, DistInfo()):
            assert not any(isinstance(p, DTensor) for p in sharded.parameters())
            got = engine.generate(prompts, max_new_tokens=6, seed=3)
        assert [g.token_ids for g in got] == [g.token_ids for g in want]
        assert all(isinstance(p, DTensor) for p in sharded.parameters())
    # Training forwards reshard the layers again (memory), as before the rollout.
    sharded(input_ids=torch.tensor([[5, 6, 7]])).logits.sum().backward()
    layer = sharded.model.layers[0]
    assert isinstance(layer.input_layernorm.weight, DTensor)


def test_unshard_that_cannot_fit_is_a_one_line_error(tiny_model, one_rank_group):
    from policy_opt.config import ConfigError
    from policy_opt.training.distributed import (
        DistInfo,
        check_unshard_fits,
        full_parameter_bytes,
        shard_model,
    )

    plain, sharded, _ = _tiny_pair(tiny_model)
    shard_model(sharded)
    need = sum(p.numel() * 4 for p in plain.parameters())
    assert full_parameter_bytes(sharded) == need
    check_unshard_fits(sharded, DistInfo(), free=need)  # exactly enough: no error
    with pytest.raises(ConfigError) as err:
        check_unshard_fits(sharded, DistInfo(), free=need - 1)
    assert "\n" not in str(err.value) and "rank 0" in str(err.value)
    # bfloat16 mixed precision gathers half the bytes.
    _, halved, _ = _tiny_pair(tiny_model)
    shard_model(halved, mixed_precision="bf16")
    assert full_parameter_bytes(halved) == need // 2


def test_one_mixed_precision_flag():
    """--dtype bf16-mixed is the one switch: FSDP2's policy under --strategy fsdp (no
    autocast on top), autocast otherwise; a bad value names the field."""
    from policy_opt.config import ConfigError, parse_config

    assert parse_config(["--dtype", "bf16-mixed", "--strategy", "fsdp"]).dtype == "bf16-mixed"
    with pytest.raises((ConfigError, SystemExit)):  # argparse refuses a choice it lacks
        parse_config(["--dtype", "bf16"])


def _has_bf16_gpu() -> bool:
    return torch.cuda.is_available() and torch.cuda.is_bf16_supported()


@pytest.mark.parametrize("device", [
    "cpu",
    pytest.param("cuda", marks=[pytest.mark.gpu, pytest.mark.skipif(
        not _has_bf16_gpu(), reason="needs a CUDA GPU with bfloat16")]),
])
def test_fsdp_bf16_mixed_precision(tiny_model, device):
    """--dtype bf16-mixed under FSDP2: float32 master shards and gradients, bfloat16 compute (the
    logits differ from float32's, by bfloat16 rounding only), rollouts decode the bfloat16
    gathered parameters. On GPU with NCCL as in training; on CPU (gloo) the same wiring."""
    import torch.distributed as dist
    from torch.distributed.tensor import DTensor

    from policy_opt.models import load_policy
    from policy_opt.rollout.engine import TransformersEngine
    from policy_opt.training.distributed import (
        DistInfo,
        full_parameter_bytes,
        shard_model,
        unsharded,
    )

    dev = torch.device(device, 0) if device == "cuda" else torch.device("cpu")
    if device == "cuda":
        torch.cuda.set_device(dev)
    dist.init_process_group("nccl" if device == "cuda" else "gloo",
                            init_method=f"tcp://127.0.0.1:{_free_port()}", rank=0, world_size=1)
    try:
        plain, tok = load_policy(str(tiny_model), dtype=torch.float32, device=dev)
        model, _ = load_policy(str(tiny_model), dtype=torch.float32, device=dev)
        shard_model(model, mixed_precision="bf16")
        assert {p.dtype for p in model.parameters()} == {torch.float32}
        assert full_parameter_bytes(model) == sum(p.numel() * 2 for p in plain.parameters())

        ids = torch.tensor([[5, 6, 7, 8, 9, 10, 11]], device=dev)
        got = model(input_ids=ids).logits.float()
        want = plain(input_ids=ids).logits
        assert not torch.equal(got, want), "no bfloat16 compute happened"
        torch.testing.assert_close(got, want, rtol=0.05, atol=0.05 * want.abs().max().item())
        got.logsumexp(-1).sum().backward()
        want.logsumexp(-1).sum().backward()
        for (name, p), q in zip(model.named_parameters(), plain.parameters()):
            assert isinstance(p.grad, DTensor) and p.grad.dtype == torch.float32, name
            g, h = p.grad.full_tensor().flatten(), q.grad.flatten()
            if h.norm() > 0:
                assert torch.nn.functional.cosine_similarity(g, h, dim=0) > 0.99, name

        with unsharded(model, DistInfo()):
            assert {p.dtype for p in model.parameters()} == {torch.bfloat16}
            gens = TransformersEngine(model, tok).generate([[5, 6, 7], [5, 6, 7]],
                                                           max_new_tokens=4, seed=0)
        assert all(1 <= len(g.token_ids) <= 4 for g in gens)
        assert all(isinstance(p, DTensor) and p.dtype == torch.float32
                   for p in model.parameters())
    finally:
        dist.destroy_process_group()


def test_optimizer_state_converts_between_index_and_name_keys(tiny_model):
    """A checkpoint's optimiser state resumes under either strategy: FSDP2 keys it by
    parameter name, a single process or DDP by index."""
    from policy_opt.models import load_policy
    from policy_opt.training.checkpoints import _tied_aliases, optimizer_state_for

    model, _ = load_policy(str(tiny_model), dtype=torch.float32, device=torch.device("cpu"))
    assert _tied_aliases(model) == {"lm_head.weight"}  # the tiny model ties its LM head
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model(input_ids=torch.tensor([[5, 6, 7]])).logits.sum().backward()
    opt.step()
    by_index = opt.state_dict()
    by_name = optimizer_state_for(model, by_index, by_name=True)
    names = [n for n, _ in model.named_parameters()]
    assert list(by_name["state"]) == names and by_name["param_groups"][0]["params"] == names
    fresh = torch.optim.AdamW(model.parameters(), lr=1e-2)
    fresh.load_state_dict(optimizer_state_for(model, by_name, by_name=False))
    again = fresh.state_dict()
    assert again["param_groups"] == by_index["param_groups"]
    for i, s in by_index["state"].items():
        assert all(torch.equal(torch.as_tensor(s[k]), torch.as_tensor(again["state"][i][k]))
                   for k in s)
