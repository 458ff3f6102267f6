"""A seccomp filter for candidates: refuse the few system calls whose effects escape the limits
or reach past the candidate's own process tree.

Installed once by the zygote (``harness.py``), so every candidate, forked from it, inherits it
and cannot remove it. It refuses:

* ``add_key``, ``request_key``, ``keyctl`` (``EPERM``): kernel keyrings belong to a uid, not to
  a process or a namespace. A key left in the user keyring would wait for the next candidate of
  the same sandbox, which runs as the same uid; and ``request_key`` can make the kernel start a
  helper program on the host, as root.
* ``memfd_create`` (``EPERM``): each memfd holds up to ``file_bytes`` of memory that
  ``RLIMIT_AS`` does not count (it is never mapped), and the OOM killer charges it to nobody.
* **the page cache of shared files** (``EPERM``): the read-only root is the host's own files,
  so their cache state is shared by every candidate of every sandbox. Refused: the calls that
  evict a page (``fadvise64``; ``madvise`` and ``process_madvise`` with ``MADV_COLD``,
  ``MADV_PAGEOUT`` or ``MADV_REMOVE``) and those that read the cache state without
  disturbing it (``mincore``, ``cachestat``, ``preadv2``/``pwritev2`` with ``RWF_NOWAIT``,
  and ``io_uring``, whose reads take the same flag). What is left is reading a page (which
  caches it, for good: nothing a candidate may call evicts it) and noticing that a read was
  slow or faulted: see the README's sandbox section for the measured bandwidth.
* **namespaces of its own**: ``clone``/``unshare`` with ``CLONE_NEWUSER`` (``EPERM``), and
  ``clone3`` as a whole (``ENOSYS``, so libc falls back to ``clone``, whose flags a filter can
  read). A user namespace would give the candidate mounts (a tmpfs outside every cap) and
  network namespaces by the thousand.
* **kernel objects shared through a file's inode**, which every sandbox sees: ``flock`` and
  the ``fcntl`` locks (a lock one candidate holds on a stdlib file is visible to a candidate
  in another sandbox), ``fcntl(F_NOTIFY)``, leases and ``inotify`` (events on a shared file
  tell one candidate what another opened or read).
* **host-wide counters**: ``sysinfo`` (free memory and the host's process count, which a
  concurrent candidate moves on purpose), ``perf_event_open`` and ``bpf``.
* every call made through another ABI (i386 ``int 0x80``, x32 on x86-64), whose numbers
  differ and would slip past the list above (``ENOSYS``).

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

CLONE_NEWUSER = 0x10000000
RWF_NOWAIT = 0x00000008
MADV_REMOVE, MADV_COLD, MADV_PAGEOUT = 9, 20, 21
# fcntl commands: POSIX and open-file-description locks (and the query), leases, dnotify
F_LOCKS = (5, 6, 7, 36, 37, 38)  # F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK/SETLK/SETLKW
F_NOTIFY_AND_LEASES = (1024, 1025, 1026)  # F_SETLEASE, F_GETLEASE, F_NOTIFY

# A rule: (syscall name, errno, None) refuses the call; (name, errno, (arg, op, values))
# refuses it when argument ``arg`` (its low 32 bits) matches: op "in" (one of the values) or
# "any-bit" (shares a bit with the mask in values[0]).
_RULES = (
    ("add_key", errno.EPERM, None),
    ("request_key", errno.EPERM, None),
    ("keyctl", errno.EPERM, None),
    ("memfd_create", errno.EPERM, None),
    ("fadvise64", errno.EPERM, None),
    ("mincore", errno.EPERM, None),
    ("cachestat", errno.EPERM, None),
    ("process_madvise", errno.EPERM, None),
    ("io_uring_setup", errno.EPERM, None),
    ("io_uring_enter", errno.EPERM, None),
    ("io_uring_register", errno.EPERM, None),
    ("madvise", errno.EPERM, (2, "in", (MADV_REMOVE, MADV_COLD, MADV_PAGEOUT))),
    ("preadv2", errno.EPERM, (5, "any-bit", (RWF_NOWAIT,))),
    ("pwritev2", errno.EPERM, (5, "any-bit", (RWF_NOWAIT,))),
    ("clone", errno.EPERM, (0, "any-bit", (CLONE_NEWUSER,))),
    ("unshare", errno.EPERM, (0, "any-bit", (CLONE_NEWUSER,))),
    ("clone3", errno.ENOSYS, None),
    ("flock", errno.EPERM, None),
    ("fcntl", errno.EPERM, (1, "in", F_LOCKS + F_NOTIFY_AND_LEASES)),
    ("inotify_init", errno.EPERM, None),
    ("inotify_init1", errno.EPERM, None),
    ("inotify_add_watch", errno.EPERM, None),
    ("sysinfo", errno.EPERM, None),
    ("perf_event_open", errno.EPERM, None),
    ("bpf", errno.EPERM, None),
)
# per architecture: the AUDIT_ARCH value seccomp reports, and the syscall numbers
_ARCHES = {
    "x86_64": (0xC000003E, {
        "add_key": 248, "request_key": 249, "keyctl": 250, "memfd_create": 319,
        "fadvise64": 221, "mincore": 27, "cachestat": 451, "process_madvise": 440,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "madvise": 28, "preadv2": 327, "pwritev2": 328, "clone": 56, "unshare": 272,
        "clone3": 435, "flock": 73, "fcntl": 72, "inotify_init": 253, "inotify_init1": 294,
        "inotify_add_watch": 254, "sysinfo": 99, "perf_event_open": 298, "bpf": 321,
    }),
    "aarch64": (0xC00000B7, {
        "add_key": 217, "request_key": 218, "keyctl": 219, "memfd_create": 279,
        "fadvise64": 223, "mincore": 232, "cachestat": 451, "process_madvise": 440,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "madvise": 233, "preadv2": 286, "pwritev2": 287, "clone": 220, "unshare": 97,
        "clone3": 435, "flock": 32, "fcntl": 25, "inotify_init1": 26,
        "inotify_add_watch": 27, "sysinfo": 179, "perf_event_open": 241, "bpf": 280,
    }),
}  # fmt: skip
_X32_BIT = 0x40000000
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
# classic BPF opcodes
_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_ARGS_OFFSET = 16  # seccomp_data: nr (4), arch (4), instruction_pointer (8), args[6] (8 each)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _rule_body(err: int, check: tuple | None) -> list[tuple]:
    """The instructions run once the syscall number matched: each ends in a return."""
    deny = (_RET_K, 0, 0, _RET_ERRNO | err)
    if check is None:
        return [deny]
    arg, op, values = check
    # the low 32 bits of a 64-bit argument (little-endian; both supported arches are)
    body = [(_LD_W_ABS, 0, 0, _ARGS_OFFSET + 8 * arg)]
    tests = [(_JEQ_K, v) for v in values] if op == "in" else [(_JSET_K, values[0])]
    for k, (code, value) in enumerate(tests):
        body.append((code, len(tests) - k, 0, value))  # a match jumps to ``deny``
    return body + [(_RET_K, 0, 0, _RET_ALLOW), deny]


def _program(arch: int, numbers: dict[str, int]) -> bytes:
    ops = [
        (_LD_W_ABS, 0, 0, 4),  # seccomp_data.arch
        (_JEQ_K, 1, 0, arch),
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),  # another ABI: nothing of it is needed
        (_LD_W_ABS, 0, 0, 0),  # seccomp_data.nr
        (_JGE_K, 0, 1, _X32_BIT),  # x32 numbers are refused
        (_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS),
    ]
    for name, err, check in _RULES:
        if name not in numbers:
            continue  # the call does not exist on this architecture
        body = _rule_body(err, check)
        ops.append((_JEQ_K, 0, len(body), numbers[name]))  # no match: skip the body
        ops += body
    ops.append((_RET_K, 0, 0, _RET_ALLOW))
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
    return (
        "yes: keyrings, memfd_create, page-cache eviction and probing, user namespaces, "
        "clone3, file locks and notifications, sysinfo, perf/bpf and other ABIs refused"
    )
