"""Device and precision: ``--device`` and ``--dtype`` resolved (:func:`resolve_device`,
:func:`resolve_dtype`, :func:`resolve_autocast`), the autocast context the forward passes
run under (:func:`autocast`), and flush-to-zero for CPU subnormals (:func:`flush_denormals`)."""

from __future__ import annotations

import contextlib

import torch

from policy_opt.errors import ConfigError
from policy_opt.training.distributed import DistInfo


def resolve_device(name: str, info: DistInfo | None = None) -> torch.device:
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ConfigError(f"--device {name}: CUDA is not available on this machine")
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and info is not None and info.enabled:
        return torch.device("cuda", info.local_rank)
    return torch.device(name)


SUBNORMAL_BITS = 0x000AE398
"""The float32 bit pattern of 1e-39, a subnormal number."""


def flush_denormals() -> bool:
    """Make CPU float arithmetic treat subnormal numbers as zero (x86 FTZ/DAZ, Arm FZ).

    Near-zero softmax probabilities (attention, and the vocabulary softmax in the backward
    pass) underflow into the subnormal range, where x86 computes each operation in microcode:
    a matmul over such probabilities ran 5x slower in the default model's decoding. Next to
    the normal-sized terms of the same sums, 0 in place of a number below 1.2e-38 is lost in
    float32 rounding anyway.

    The flag is per thread: torch's intra-op worker threads copy it when they start, so call
    this before the first parallel op of the process. Returns whether every worker follows it
    (False also where the CPU has no such mode).
    """
    if not torch.set_flush_denormal(True):
        return False
    # Written and read as bits: with the mode on, converting 1e-39 to float32 would already
    # give 0, and a float comparison would read a subnormal as 0. Each worker takes a slice
    # of the product (elementwise grain: 32,768).
    tiny = torch.full((torch.get_num_threads() * 65536,), SUBNORMAL_BITS, dtype=torch.int32)
    return not bool((tiny.view(torch.float32) * 1.0).view(torch.int32).any())


def resolve_dtype(name: str, device: torch.device) -> torch.dtype:
    """The parameters' dtype for ``--dtype name`` (bf16-mixed keeps float32 parameters)."""
    if name == "bf16-mixed":
        return torch.float32
    if name == "auto":
        if device.type == "cuda" and torch.cuda.is_bf16_supported():
            return torch.bfloat16
        return torch.float32
    return {"float32": torch.float32, "bfloat16": torch.bfloat16}[name]


def resolve_autocast(name: str, device: torch.device) -> torch.dtype | None:
    """The autocast dtype for ``--dtype name``: bfloat16 for bf16-mixed, else None (the
    parameters' own dtype is the compute dtype)."""
    if name != "bf16-mixed":
        return None
    if device.type == "cuda" and not torch.cuda.is_bf16_supported():
        raise ConfigError("--dtype bf16-mixed: this GPU does not support bfloat16")
    return torch.bfloat16


def autocast(device: torch.device, dtype: torch.dtype | None) -> contextlib.AbstractContextManager:
    """bf16-mixed: forward passes (rollouts, log-probs, evaluation) under bfloat16 autocast,
    while parameters, gradients and AdamW state stay float32; a no-op for ``dtype`` None."""
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device.type, dtype=dtype)
