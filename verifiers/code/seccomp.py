"""A seccomp filter for candidates: refuse the few system calls whose effects escape the limits.

Installed once by the zygote (``harness.py``), so every candidate, forked from it, inherits it
and cannot remove it. It refuses (``EPERM``):

* ``add_key``, ``request_key``, ``keyctl``: kernel keyrings belong to a uid, not to a process
  or a namespace. A key left in the user keyring (or the persistent one, kept for days) would
  wait for the next candidate of the same sandbox, which runs as the same uid; and
  ``request_key`` can make the kernel start a helper program on the host, as root.
* ``memfd_create``: each memfd holds up to ``file_bytes`` of memory that ``RLIMIT_AS`` does
  not count (it is never mapped), one per open file and process (64 x 16 MiB x 8 by
  default), and the OOM killer charges it to nobody. Files on ``/tmp`` are capped instead.
* every call made through another ABI (i386 ``int 0x80``, x32 on x86-64), whose numbers
  differ and would slip past the list above.

Everything else is allowed: the filesystem, namespaces and limits are what confine a
candidate; this only closes what they cannot reach. Standard library only (imported by the
harness under ``python -I -S``).
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct

# per architecture: the AUDIT_ARCH value seccomp reports, and add_key, request_key, keyctl,
# memfd_create
_ARCHES = {
    "x86_64": (0xC000003E, (248, 249, 250, 319)),
    "aarch64": (0xC00000B7, (217, 218, 219, 279)),
}
_X32_BIT = 0x40000000
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
# classic BPF opcodes
_LD_W_ABS, _JEQ_K, _JGE_K, _RET_K = 0x20, 0x15, 0x35, 0x06


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _program(arch: int, refused: tuple[int, ...]) -> bytes:
    deny = _RET_ERRNO | errno.EPERM
    ops = [
        (_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (_JEQ_K, 1, 0, arch),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),  # another ABI: nothing of it is needed
        (_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (_JGE_K, len(refused) + 1, 0, _X32_BIT),  # x32 numbers: jump to the refusal
    ]
    for i, nr in enumerate(refused):
        ops.append((_JEQ_K, len(refused) - i, 0, nr))  # jump to the refusal
    ops += [(_RET_K, 0, 0, _RET_ALLOW), (_RET_K, 0, 0, deny)]
    return b"".join(struct.pack("=HBBI", *op) for op in ops)


def install() -> str:
    """Install the filter on this process (inherited by its children); return what is in
    force, for the isolation report. Needs root or ``no_new_privs``; never raises."""
    arch = _ARCHES.get(platform.machine())
    if arch is None:
        return f"no (unknown architecture {platform.machine()})"
    code = _program(*arch)
    buf = ctypes.create_string_buffer(code, len(code))
    prog = _SockFprog(len(code) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        return f"no ({os.strerror(ctypes.get_errno())})"
    return "yes: keyrings (add_key, request_key, keyctl), memfd_create and other ABIs refused"
