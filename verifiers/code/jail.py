"""The candidate's filesystem: an allowlist, not a blocklist.

Built once per sandbox by its zygote (``harness.py``), as root, in a mount namespace of its
own: a small tmpfs becomes the new root (``pivot_root``) and receives read-only bind mounts
of exactly what a forked Python needs to keep running:

* the Python prefix (interpreter and standard library), with ``site-packages`` covered by an
  empty read-only tmpfs (the harness runs ``-S``: no third-party package is on the path);
* the folders of the shared libraries the interpreter has mapped (libc, libm, and the
  libraries the standard library's extension modules load from the same folder), the ELF
  loader and ``/etc/ld.so.cache``, each at its host path (symlinks on the way recreated);
* ``/dev/null``, ``zero``, ``full``, ``random``, ``urandom``; ``/dev/shm`` is a link to ``/tmp``;
* a fresh ``/proc`` of the sandbox's PID namespace, mounted ``hidepid=invisible`` (a
  candidate sees its own processes only) and ``subset=pid`` where the kernel allows it.

Every other host path (home folders, working trees, datasets, the project itself, other
users' files) is absent: the old root is detached, not covered. The root itself is a
read-only tmpfs, so the only writable folder is ``/tmp``, which each candidate gets as a new,
empty, size-capped tmpfs in a mount namespace of its own (see ``harness._become_candidate``):
it vanishes with the candidate's last process, so there is nothing to clean up afterwards.

Standard library only: imported by the harness under ``python -I -S``.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
DEVICES = ("null", "zero", "full", "random", "urandom")
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "ppc64le": 203, "s390x": 217}
_libc = ctypes.CDLL(None, use_errno=True)


class JailError(Exception):
    """The allowlisted root could not be built; the message says which step failed."""


def libc_call(name: str, *args) -> str | None:
    """Call a libc function; return None on success or the error text."""
    if getattr(_libc, name)(*args) != 0:
        return os.strerror(ctypes.get_errno())
    return None


def _mount(src: bytes | None, target: str, fstype: bytes | None, flags: int, data: bytes | None):
    if err := libc_call("mount", src, target.encode(), fstype, flags, data):
        raise JailError(f"mount {target}: {err}")


def _elf_interpreter(path: str) -> str | None:
    """The ELF loader an executable names (PT_INTERP), so ``exec`` of the interpreter works."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if head[:4] != b"\x7fELF" or head[4] != 2:  # 64-bit only; None means "skip"
                return None
            end = "<" if head[5] == 1 else ">"
            (phoff,) = struct.unpack(end + "Q", head[32:40])
            phentsize, phnum = struct.unpack(end + "HH", head[54:58])
            for i in range(min(phnum, 64)):
                f.seek(phoff + i * phentsize)
                p_type, _, p_offset, _, _, p_filesz = struct.unpack(end + "IIQQQQ", f.read(40))
                if p_type == 3:  # PT_INTERP
                    f.seek(p_offset)
                    return f.read(min(p_filesz, 4096)).rstrip(b"\0").decode()
    except (OSError, struct.error, UnicodeDecodeError):
        return None
    return None


def _mapped_library_dirs() -> set[str]:
    dirs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split(maxsplit=5)
            path = fields[5].strip() if len(fields) == 6 else ""
            if path.startswith("/") and ".so" in os.path.basename(path):
                dirs.add(os.path.dirname(path))
    return dirs


class _Builder:
    def __init__(self, root: str) -> None:
        self.root = root
        self.visible: list[str] = []
        self.covered: list[str] = []

    def _inside(self, path: str) -> str:
        return self.root + path

    def expose(self, path: str, _depth: int = 0) -> None:
        """Make ``path`` resolve inside the new root as on the host: each symlink on the way
        is recreated, the real file or folder at the end is bind-mounted read-only."""
        if _depth > 16 or not os.path.lexists(path):
            return
        parts = [p for p in path.split("/") if p]
        for i in range(1, len(parts) + 1):
            here = "/" + "/".join(parts[:i])
            if os.path.islink(here):
                link = os.readlink(here)
                os.makedirs(self._inside(os.path.dirname(here)), mode=0o755, exist_ok=True)
                if not os.path.lexists(self._inside(here)):
                    os.symlink(link, self._inside(here))
                target = os.path.normpath(os.path.join(os.path.dirname(here), link))
                rest = "/".join(parts[i:])
                self.expose(os.path.join(target, rest) if rest else target, _depth + 1)
                return
        self.bind(path)

    def bind(self, path: str, *, dev: bool = False) -> None:
        inside = self._inside(path)
        if os.path.ismount(inside) or path in self.visible:
            return
        if os.path.isdir(path):
            os.makedirs(inside, mode=0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(inside), mode=0o755, exist_ok=True)
            if not os.path.exists(inside):
                os.close(os.open(inside, os.O_CREAT | os.O_WRONLY, 0o644))
        _mount(path.encode(), inside, None, MS_BIND, None)
        # a bind remount must repeat the source's nosuid/nodev/noexec or it is refused
        locked = os.statvfs(path).f_flag & (MS_NOSUID | MS_NODEV | MS_NOEXEC)
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | locked | (0 if dev else MS_NODEV)
        _mount(None, inside, None, flags, None)
        self.visible.append(path)

    def cover(self, path: str) -> None:
        """An empty read-only tmpfs over a folder inside an exposed one."""
        inside = self._inside(path)
        if os.path.isdir(inside):
            flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
            _mount(b"tmpfs", inside, b"tmpfs", flags, b"size=4k,mode=555")
            self.covered.append(path)


def build(scratch: str = "/tmp") -> dict:
    """Enter the allowlisted root; return the report of what a candidate can see.

    Must run as root in a mount namespace that is already private (``MS_PRIVATE``), inside
    the sandbox's PID namespace where there is one (for ``/proc``). ``scratch`` is any folder:
    the new root is mounted over it before the switch. Raises :class:`JailError`.
    """
    prefix = os.path.realpath(sys.base_prefix)
    lib_dirs = sorted(_mapped_library_dirs())
    interp = _elf_interpreter(os.path.realpath(sys.executable))
    _mount(b"tmpfs", scratch, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=755")
    b = _Builder(scratch)
    try:
        b.expose(prefix)
        for d in lib_dirs:
            if not (d + "/").startswith(prefix + "/"):
                b.expose(d)
        for path in (interp, "/etc/ld.so.cache"):
            if path:
                b.expose(path)
        for site in ("lib/python{}.{}/site-packages", "lib64/python{}.{}/site-packages"):
            b.cover(os.path.join(prefix, site.format(*sys.version_info[:2])))
        for name in DEVICES:
            if os.path.exists(f"/dev/{name}"):
                b.bind(f"/dev/{name}", dev=True)
    except OSError as e:
        raise JailError(f"cannot prepare the new root: {e}") from None
    for name, target in (("shm", "/tmp"), ("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):  # fmt: skip
        os.makedirs(scratch + "/dev", mode=0o755, exist_ok=True)
        os.symlink(target, f"{scratch}/dev/{name}")
    for d in ("/tmp", "/proc", "/.old"):
        os.makedirs(scratch + d, mode=0o755, exist_ok=True)
    os.chmod(scratch + "/tmp", 0o1777)
    number = _SYS_PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise JailError(f"pivot_root: unknown syscall number on {platform.machine()}")
    os.chdir(scratch)
    if _libc.syscall(number, b".", b".old") != 0:
        raise JailError(f"pivot_root: {os.strerror(ctypes.get_errno())}")
    os.chdir("/")
    if err := libc_call("umount2", b"/.old", MNT_DETACH):
        raise JailError(f"detaching the old root: {err}")
    os.rmdir("/.old")
    _mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, None)
    proc_flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    proc = "hidepid=invisible,subset=pid"
    if libc_call("mount", b"proc", b"/proc", b"proc", proc_flags, proc.encode()):
        proc = "hidepid=invisible"  # subset= arrived in Linux 5.8
        _mount(b"proc", "/proc", b"proc", proc_flags, proc.encode())
    return {
        "visible (read-only)": sorted(b.visible),
        "covered (empty)": b.covered,
        "proc": proc,
        "writable": "/tmp only: a fresh size-capped tmpfs per candidate",
    }
