"""Data parallelism on PyTorch's own engines: ``torchrun`` + DDP (or FSDP2's ``fully_shard``).

Under ``torchrun --nproc_per_node N -m policy_opt.train ...`` every rank

- takes a contiguous share of the step's prompts (B / N prompts, whole groups: a group's G
  completions are rolled out, scored and normalised on one rank, so group advantages never
  need a collective),
- computes its loss on its own rows, normalised by its own row count; DDP averages the
  gradients over ranks, which equals the single-process gradient of the global batch
  because every rank holds the same number of rows,
- and only rank 0 logs, plots and writes checkpoints.

Without torchrun (no ``WORLD_SIZE`` in the environment) everything here is a no-op.
"""

from __future__ import annotations

import contextlib
import os
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


def wrap_model(model: torch.nn.Module, info: DistInfo, strategy: str) -> torch.nn.Module:
    """The module the training forward/backward goes through.

    ``ddp``: ``DistributedDataParallel`` (a full replica per rank; gradients all-reduced).
    ``fsdp``: FSDP2 ``fully_shard`` on every decoder layer and the root, for models that do
    not fit one device; parameters, gradients and optimiser state are sharded.
    """
    if not info.enabled:
        return model
    if strategy == "fsdp":
        from torch.distributed.fsdp import fully_shard

        layers = getattr(getattr(model, "model", model), "layers", [])
        for layer in layers:
            fully_shard(layer)
        fully_shard(model)
        return model
    from torch.nn.parallel import DistributedDataParallel

    device_ids = [info.local_rank] if next(model.parameters()).is_cuda else None
    return DistributedDataParallel(model, device_ids=device_ids)


def gather_objects(obj: Any, info: DistInfo) -> list[Any]:
    """Every rank's ``obj`` in rank order (a one-element list without torchrun)."""
    if not info.enabled:
        return [obj]
    out: list[Any] = [None] * info.world
    dist.all_gather_object(out, obj)
    return out


def mean_over_ranks(values: dict[str, float], info: DistInfo) -> dict[str, float]:
    """Average each float over ranks (every rank must pass the same keys)."""
    if not info.enabled or not values:
        return values
    keys = sorted(values)
    t = torch.tensor([float(values[k]) for k in keys], dtype=torch.float64)
    dist.all_reduce(t)
    return {k: v / info.world for k, v in zip(keys, t.tolist())}


def any_rank(flag: bool, info: DistInfo) -> bool:
    """True when ``flag`` is true on any rank, so every rank takes the same branch (a rank
    that stopped alone would leave the others blocked in the next collective)."""
    if not info.enabled:
        return bool(flag)
    t = torch.tensor([1.0 if flag else 0.0])
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return bool(t.item())


def max_over_ranks(value: float, info: DistInfo) -> float:
    """The largest ``value`` of any rank, on every rank (for decisions that must agree, like a
    clock reading)."""
    if not info.enabled:
        return float(value)
    t = torch.tensor([float(value)], dtype=torch.float64)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return float(t.item())


@contextlib.contextmanager
def unsharded(model: torch.nn.Module, info: DistInfo) -> Iterator[None]:
    """Hold FSDP2-sharded parameters gathered while the rollout engine decodes.

    Ranks decode different prompts for different numbers of steps; with the parameters
    gathered up front, the decode forwards issue no collectives and cannot deadlock.
    A no-op for DDP and single-process runs.
    """
    from torch.distributed.fsdp import FSDPModule

    fsdp = [m for m in model.modules() if isinstance(m, FSDPModule)] if info.enabled else []
    for m in fsdp:
        m.unshard()
    try:
        yield
    finally:
        for m in fsdp:
            m.reshard()


def barrier(info: DistInfo) -> None:
    if info.enabled:
        dist.barrier()


def shutdown(info: DistInfo) -> None:
    if info.enabled and dist.is_initialized():
        dist.destroy_process_group()
