"""Data parallelism on PyTorch's own engines: ``torchrun`` + DDP (or FSDP2's ``fully_shard``).

Under ``torchrun --nproc_per_node N -m policy_opt.train ...`` every rank

- takes a contiguous share of the step's prompts (B / N prompts, whole groups: a group's G
  completions are rolled out, scored and normalised on one rank, so group advantages never
  need a collective),
- computes its loss on its own rows, normalised by its own row count; DDP averages the
  gradients over ranks (FSDP2's reduce-scatter averages them too, each rank keeping its
  shard), which equals the single-process gradient of the global batch because every rank
  holds the same number of rows,
- under FSDP2 decodes its rollouts with the full parameters gathered (:func:`unsharded`)
  and trains with them sharded,
- and only rank 0 logs, plots and writes checkpoints.

Without torchrun (no ``WORLD_SIZE`` in the environment) everything here is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import torch
import torch.distributed as dist


@dataclass(frozen=True)
class DistInfo:
    rank: int = 0
    world: int = 1
    local_rank: int = 0

    @property
    def enabled(self) -> bool:
        return self.world > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    def shard(self, n: int) -> slice:
        """This rank's contiguous share of ``n`` items (``n`` divisible by the world size)."""
        if n % self.world:
            raise ValueError(f"{n} items cannot be split evenly over {self.world} ranks")
        per = n // self.world
        return slice(self.rank * per, (self.rank + 1) * per)


def init_distributed(device: str = "auto") -> DistInfo:
    """Join the process group torchrun set up (gloo on CPU, nccl on CUDA); no-op without it."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return DistInfo()
    rank = int(os.environ["RANK"])
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    use_cuda = device.startswith("cuda") or (device == "auto" and torch.cuda.is_available())
    if not dist.is_initialized():
        if use_cuda:
            torch.cuda.set_device(local_rank)
        dist.init_process_group(backend="nccl" if use_cuda else "gloo")
    return DistInfo(rank=rank, world=world, local_rank=local_rank)


# FSDP2's reshard-after-forward settings as ``shard_model`` sets them; ``unsharded``
# turns resharding off around a rollout and restores these.
LAYER_RESHARDS_AFTER_FORWARD = True
# The root (embeddings, final norm, LM head) keeps its parameters after the forward, as
# FSDP2 does by default for the root: its backward comes right after.
ROOT_RESHARDS_AFTER_FORWARD = False
# The dtype each sharded model's parameters are gathered in (its MixedPrecisionPolicy's
# param_dtype, or None: their own), for the memory estimate before unsharding.
_GATHER_DTYPE: weakref.WeakKeyDictionary[torch.nn.Module, torch.dtype | None] = (
    weakref.WeakKeyDictionary())


def wrap_model(model: torch.nn.Module, info: DistInfo, strategy: str,
               mixed_precision: str = "none") -> torch.nn.Module:
    """The module the training forward/backward goes through.

    ``ddp``: ``DistributedDataParallel`` (a full replica per rank; gradients all-reduced).
    ``fsdp``: FSDP2 ``fully_shard`` (see :func:`shard_model`), for models that do not fit
    one device; parameters, gradients and optimiser state are sharded.
    """
    if not info.enabled:
        return model
    if strategy == "fsdp":
        return shard_model(model, mixed_precision)
    from torch.nn.parallel import DistributedDataParallel

    device_ids = [info.local_rank] if next(model.parameters()).is_cuda else None
    return DistributedDataParallel(model, device_ids=device_ids)


def shard_model(model: torch.nn.Module, mixed_precision: str = "none") -> torch.nn.Module:
    """FSDP2 ``fully_shard`` on every decoder layer and then the root, in place.

    ``mixed_precision="bf16"``: ``MixedPrecisionPolicy(param_dtype=bfloat16,
    reduce_dtype=float32)``: the shards (master weights, gradients, AdamW state) stay in the
    model's dtype (float32), forward and backward compute in bfloat16, and gradients are
    reduce-scattered in float32 so the sum over ranks loses nothing to bfloat16 rounding.
    The model must already be float32 (``--dtype float32``). Needs an initialised process
    group (one rank is enough).
    """
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard

    if mixed_precision == "bf16":
        policy = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    elif mixed_precision == "none":
        policy = MixedPrecisionPolicy()
    else:
        raise ValueError(f"mixed_precision must be 'none' or 'bf16', got {mixed_precision!r}")
    layers = getattr(getattr(model, "model", model), "layers", [])
    for layer in layers:
        fully_shard(layer, reshard_after_forward=LAYER_RESHARDS_AFTER_FORWARD, mp_policy=policy)
    fully_shard(model, reshard_after_forward=ROOT_RESHARDS_AFTER_FORWARD, mp_policy=policy)
    _GATHER_DTYPE[model] = policy.param_dtype
    return model


def gather_objects(obj: Any, info: DistInfo) -> list[Any]:
    """Every rank's ``obj`` in rank order (a one-element list without torchrun)."""
    if not info.enabled:
        return [obj]
    out: list[Any] = [None] * info.world
    dist.all_gather_object(out, obj)
    return out


def _collective_device() -> torch.device:
    """Where a small tensor for a collective must live: NCCL reduces CUDA tensors only (a
    CPU tensor fails there), gloo reduces CPU tensors."""
    if dist.get_backend() == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def mean_over_ranks(values: dict[str, float], info: DistInfo) -> dict[str, float]:
    """Average each float over ranks (every rank must pass the same keys)."""
    if not info.enabled or not values:
        return values
    keys = sorted(values)
    t = torch.tensor([float(values[k]) for k in keys], dtype=torch.float64,
                     device=_collective_device())
    dist.all_reduce(t)
    return {k: v / info.world for k, v in zip(keys, t.tolist())}


def any_rank(flag: bool, info: DistInfo) -> bool:
    """True when ``flag`` is true on any rank, so every rank takes the same branch (a rank
    that stopped alone would leave the others blocked in the next collective)."""
    if not info.enabled:
        return bool(flag)
    t = torch.tensor([1.0 if flag else 0.0], device=_collective_device())
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return bool(t.item())


def max_over_ranks(value: float, info: DistInfo) -> float:
    """The largest ``value`` of any rank, on every rank (for decisions that must agree, like a
    clock reading)."""
    if not info.enabled:
        return float(value)
    t = torch.tensor([float(value)], dtype=torch.float64, device=_collective_device())
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return float(t.item())


@contextlib.contextmanager
def unsharded(model: torch.nn.Module, info: DistInfo) -> Iterator[None]:
    """Hold FSDP2-sharded parameters gathered while the rollout engine decodes.

    Why unshard in place rather than gather a full state dict into a separate engine
    model: ``unshard()`` is one all-gather per sharded module (a decoder layer), the same
    collective a training forward issues, into FSDP's own buffers, freed again by
    ``reshard()``; a full state dict is gathered tensor by tensor (one collective per
    parameter) and then copied into a second module. Both peak at one full copy of the
    parameters per rank during the rollout; unsharding does it with fewer collectives and
    no copy, and the engine keeps decoding the trainer's own modules.

    Resharding after forward is switched off meanwhile: the engine's prefill is an ordinary
    ``model(...)`` call, whose post-forward hooks would otherwise reshard every layer under
    the KV decoder, which then reads the parameters directly (``policy_opt.rollout.kv_decode``).
    With every parameter gathered up front, the decode forwards issue no collectives, so
    ranks that decode for different numbers of steps cannot deadlock.

    Before gathering, every rank estimates the bytes the full parameters take against the
    memory free on its device, and all ranks raise the same one-line ``ConfigError`` when
    any rank would run out (a rank failing alone would leave the others in the all-gather).
    A no-op without FSDP2 modules (DDP, single process).
    """
    from torch.distributed.fsdp import FSDPModule

    fsdp = [m for m in model.modules() if isinstance(m, FSDPModule)]
    if not fsdp:
        yield
        return
    check_unshard_fits(model, info)
    model.set_reshard_after_forward(False)
    for m in fsdp:
        m.unshard()
    try:
        yield
    finally:
        for m in fsdp:
            m.set_reshard_after_forward(
                ROOT_RESHARDS_AFTER_FORWARD if m is model else LAYER_RESHARDS_AFTER_FORWARD,
                recurse=False)
            m.reshard()


def full_parameter_bytes(model: torch.nn.Module) -> int:
    """Bytes the parameters of a ``shard_model`` model take once gathered (in the dtype they
    are gathered in), not counting the shards already held."""
    from torch.distributed.tensor import DTensor

    gather = _GATHER_DTYPE.get(model)
    total = 0
    for p in model.parameters():
        if isinstance(p, DTensor):
            total += p.numel() * (gather or p.dtype).itemsize
    return total


def free_device_bytes(device: torch.device) -> int | None:
    """Memory this process could still allocate on ``device``: CUDA's free memory plus what
    torch's caching allocator holds unused; on CPU, Linux's MemAvailable shared by the
    ranks of this node. None when unknown (the check is then skipped)."""
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        return free + torch.cuda.memory_reserved(device) - torch.cuda.memory_allocated(device)
    if device.type != "cpu":
        return None
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024
                    return available // max(1, int(os.environ.get("LOCAL_WORLD_SIZE", "1")))
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_unshard_fits(model: torch.nn.Module, info: DistInfo,
                       free: int | None = None) -> None:
    """Raise ``ConfigError`` on every rank when the full parameters would not fit the free
    memory of some rank's device (``free``: this rank's, measured when None). A collective
    under torchrun: every rank calls it at the same point."""
    from policy_opt.errors import ConfigError

    device = next(model.parameters()).device
    need = full_parameter_bytes(model)
    if free is None:
        free = free_device_bytes(device)
    short = [(r, n, f, d) for r, (n, f, d) in enumerate(gather_objects((need, free, str(device)),
                                                                        info))
             if f is not None and n > f]
    if short:
        r, n, f, d = short[0]
        raise ConfigError(
            f"--strategy fsdp: rollouts gather the full parameters ({n / 2**30:.2f} GiB) but "
            f"rank {r} has {f / 2**30:.2f} GiB free on {d}; use more memory per rank, a smaller "
            "--model, --dtype bf16-mixed (gathers in bfloat16) or --engine vllm-server "
            "(rollouts outside the trainer)")


def barrier(info: DistInfo) -> None:
    if info.enabled:
        dist.barrier()


def shutdown(info: DistInfo) -> Any:
    """Destroy the process group; return its Python object, for the caller to drop only after
    everything that used the group (the DDP model) is gone.

    Why the order: DDP's reducer holds the group from C++, and when it is the last holder, the
    gloo group's destructor runs with the GIL held and joins gloo's worker thread, which may
    need the GIL to free the tensors of a collective it just finished: a deadlock at exit (one
    two-rank CPU run in about 50; seen in ci21, ci22 and under gdb). Dropped last through its
    Python object, the group is destroyed with the GIL released."""
    if not (info.enabled and dist.is_initialized()):
        return None
    group = dist.group.WORLD
    dist.destroy_process_group()
    return group
