"""A second device for CPU-only machines: tensors that live on a device other than the CPU
as far as every check can see, compute on the CPU, and fail on each operation that a CUDA
kernel would refuse for mixing devices.

Why it exists: the trainer once crashed on its first CUDA step (``idx[active[idx // g]]``:
a CPU tensor masked by a CUDA mask) while the whole CPU suite passed: on one device no
operation can mix devices. PyTorch offers no second device without its hardware. The
``meta`` device alone has no data (the trainer reads ``.item()``/``.tolist()``),
``FakeTensorMode`` refuses data-dependent ops (boolean masks, ``nonzero``), a
``privateuse1`` backend needs compiled kernels, and a CPU-only build refuses ``cuda`` in its
C++ bindings (device guards) before any Python hook runs. What works: a wrapper tensor
subclass (``_make_wrapper_subclass`` allocates no storage, as FakeTensor and DTensor do)
that reports the ``meta`` device, whose no-op device guard every binding accepts, and holds
a real CPU tensor that the operation runs on. The real code runs with real numbers; only
the device checks are ours.

The checks (:func:`_check_devices`) are those of CUDA kernels, with ``meta`` as the GPU:

* every tensor argument of an operation is on one device, except 0-dim CPU tensors (CUDA
  kernels take those as scalars);
* ``index``/``index_put``: the indices may be on the CPU or on the indexed tensor's device
  (a CPU index into a GPU tensor is allowed; a GPU index or mask into a CPU tensor is not:
  the crash above);
* copies between devices (``copy_``, ``.to``) are allowed.

It also lists in :data:`host_reads` every operation on virtual tensors that makes the host
wait for the device on a GPU: ``.item()``/``bool()``, ``.tolist()``, copies to the CPU, and
ops whose output size depends on the data (``nonzero``, boolean-mask indexing, ``unique``).

Calls given ``device=`` the virtual device (``torch.arange(n, device=x.device)``,
``x.to(device)``) make virtual tensors; calls without a device make CPU tensors, as on a
GPU machine. Not modelled: random generators on the device (``torch.Generator`` has no meta
kind; a caller patches it), streams, and GPU numerics (the arithmetic is the CPU's), and
code that branches on ``device.type == "cuda"`` takes its other branch.

Example:
    >>> with VirtualDeviceMode():                                    # doctest: +SKIP
    ...     x = torch.arange(4).to(VIRTUAL)
    ...     torch.arange(4)[x > 1]                                     # raises DeviceMismatch
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import torch
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map

VIRTUAL = torch.device("meta")
aten = torch.ops.aten
# Reads a GPU would have to wait for: a value or a data-dependent shape the host needs.
_HOST_READS = {aten._local_scalar_dense.default, aten.nonzero.default,
               aten.masked_select.default, aten._unique2.default, aten.unique_dim.default}
# What a VirtualDeviceMode counted, in order (cleared on entry): (op, where) with ``where``
# the innermost calling frame outside torch, "path/file.py:line".
host_reads: list[tuple[str, str]] = []
_ROOT = Path(__file__).resolve().parent.parent


def _caller() -> str:
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if f"{os.sep}torch{os.sep}" not in name and not name.endswith("virtual_device.py"):
            path = Path(name)
            # the project's own files by their path in the repository (policy_opt/training/...)
            parts = path.relative_to(_ROOT).parts if path.is_relative_to(_ROOT) else path.parts[-2:]
            return f"{'/'.join(parts)}:{frame.f_lineno}"
        frame = frame.f_back
    return "?"


class DeviceMismatch(RuntimeError):
    """An operation a GPU would refuse: its tensors are on different devices."""


class VirtualTensor(torch.Tensor):
    """A CPU tensor (``elem``) that reports the virtual device."""

    elem: torch.Tensor

    @staticmethod
    def __new__(cls, elem: torch.Tensor, requires_grad: bool = False) -> VirtualTensor:
        out = torch.Tensor._make_wrapper_subclass(
            cls, elem.shape, strides=elem.stride(), storage_offset=elem.storage_offset(),
            dtype=elem.dtype, layout=elem.layout, device=VIRTUAL, requires_grad=requires_grad)
        out.elem = elem
        return out

    def __repr__(self) -> str:  # the default repr would read the (absent) storage
        return f"VirtualTensor({self.elem!r})"

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return _run(func, args, kwargs or {})


def to_virtual(t: torch.Tensor) -> VirtualTensor:
    return VirtualTensor(t.detach(), requires_grad=t.requires_grad)


def virtualise_module(module: torch.nn.Module) -> torch.nn.Module:
    """Move ``module``'s parameters and buffers onto the virtual device (in place); a tensor
    shared between modules (tied embeddings) stays shared."""
    moved: dict[int, torch.Tensor] = {}
    for sub in module.modules():
        for name, p in list(sub._parameters.items()):
            if p is not None:
                if id(p) not in moved:
                    moved[id(p)] = torch.nn.Parameter(to_virtual(p.data), p.requires_grad)
                sub._parameters[name] = moved[id(p)]
        for name, b in list(sub._buffers.items()):
            if b is not None:
                sub._buffers[name] = moved.setdefault(id(b), to_virtual(b))
    return module


def _device(x: torch.Tensor) -> torch.device:
    return VIRTUAL if isinstance(x, VirtualTensor) else x.device


def _is_virtual(device: Any) -> bool:
    return device is not None and torch.device(device).type == VIRTUAL.type


_CROSS_DEVICE_OK = {aten.copy_.default, aten._to_copy.default, aten._local_scalar_dense.default,
                    aten.lift_fresh.default, aten.detach.default, aten.alias.default}
_INDEXING = {aten.index.Tensor, aten.index_put.default, aten.index_put_.default,
             aten._index_put_impl_.default, aten._unsafe_index.Tensor,
             aten._unsafe_index_put.default}


def _tensors(x: Any) -> list[torch.Tensor]:
    out: list[torch.Tensor] = []
    tree_map(lambda t: out.append(t) if isinstance(t, torch.Tensor) else None, x)
    return out


def _cpu_scalar(t: torch.Tensor) -> bool:
    return _device(t).type == "cpu" and t.dim() == 0


def _check_devices(func: Any, args: tuple, kwargs: dict) -> None:
    if func in _CROSS_DEVICE_OK:
        return
    if func in _INDEXING:
        target = _device(args[0])
        indices = _tensors(args[1])
        for t in _tensors(args[1:]) + _tensors(kwargs):
            dev = _device(t)
            cpu_index_ok = dev.type == "cpu" and any(t is i for i in indices)
            if dev != target and not (_cpu_scalar(t) or cpu_index_ok):
                raise DeviceMismatch(
                    f"{func}: indices should be either on cpu or on the same device as the "
                    f"indexed tensor ({target}); got one on {dev}")
        return
    devices = {_device(t) for t in _tensors(args) + _tensors(kwargs) if not _cpu_scalar(t)}
    if len(devices) > 1:
        raise DeviceMismatch(f"{func}: expected all tensors to be on the same device, got "
                             f"{sorted(map(str, devices))}")


def _counts_as_read(func: Any, args: tuple, kwargs: dict) -> bool:
    if func in _HOST_READS:
        return True
    if func is aten._to_copy.default:  # a copy from the device to the host
        return kwargs.get("device") is not None and not _is_virtual(kwargs["device"])
    # indexing with a boolean mask: the result's size is the mask's count
    return func is aten.index.Tensor and any(t.dtype == torch.bool for t in _tensors(args[1]))


def _run(func: Any, args: tuple, kwargs: dict) -> Any:
    _check_devices(func, args, kwargs)
    if _counts_as_read(func, args, kwargs):
        host_reads.append((str(func), _caller()))
    virtual = any(isinstance(t, VirtualTensor) for t in _tensors(args) + _tensors(kwargs))
    if "device" in kwargs:
        virtual = _is_virtual(kwargs["device"])
        if virtual:
            kwargs = {**kwargs, "device": torch.device("cpu")}
    elif func is aten._to_copy.default:
        virtual = isinstance(args[0], VirtualTensor)
    wrappers = {id(t.elem): t for t in _tensors(args) if isinstance(t, VirtualTensor)}

    def unwrap(x: Any) -> Any:
        return x.elem if isinstance(x, VirtualTensor) else x

    out = func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs))
    if func is aten.copy_.default:
        return args[0]

    def wrap(x: Any) -> Any:
        if not isinstance(x, torch.Tensor):
            return x
        if id(x) in wrappers:  # an in-place op returns its (wrapped) input
            return wrappers[id(x)]
        return VirtualTensor(x) if virtual else x

    return tree_map(wrap, out)


class _CheckDevices(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if any(isinstance(t, VirtualTensor) for t in _tensors(args) + _tensors(kwargs)) \
                or _is_virtual(kwargs.get("device")):
            return _run(func, args, kwargs)
        _check_devices(func, args, kwargs)
        return func(*args, **kwargs)


class _MakeOnVirtual(TorchFunctionMode):
    # Factory calls naming the virtual device would make real (data-less) meta tensors; they
    # are made on the CPU and wrapped instead, one level above dispatch.
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func is torch.Tensor.tolist and isinstance(args[0], VirtualTensor):
            host_reads.append(("tolist", _caller()))
            return args[0].elem.tolist()  # (refused for subclasses; a GPU copies to the host)
        if func is torch.Tensor.to:
            device, dtype, _, _ = torch._C._nn._parse_to(*args[1:], **kwargs)
            if _is_virtual(device):
                x = args[0]
                rest = {"dtype": dtype} if dtype is not None else {}
                if isinstance(x, VirtualTensor):
                    return x if dtype in (None, x.dtype) else func(x, **rest)
                return VirtualTensor(x.to(**rest).detach(), requires_grad=x.requires_grad)
        elif _is_virtual(kwargs.get("device")):
            out = func(*args, **{**kwargs, "device": torch.device("cpu")})
            return tree_map(lambda t: VirtualTensor(t.detach(), t.requires_grad)
                            if isinstance(t, torch.Tensor) else t, out)
        return func(*args, **kwargs)


class VirtualDeviceMode:
    """Within it, calls with ``device=VIRTUAL`` make virtual tensors and every operation's
    devices are checked (see the module docstring)."""

    def __enter__(self) -> VirtualDeviceMode:
        host_reads.clear()
        self._modes = [_MakeOnVirtual(), _CheckDevices()]
        for m in self._modes:
            m.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        for m in reversed(self._modes):
            m.__exit__(*exc)
