"""The candidate's filesystem: an allowlist, not a blocklist.

Built once per sandbox by its zygote (``harness.py``), as root, in a mount namespace of its
own: a small tmpfs becomes the new root (``pivot_root``) and receives read-only bind mounts
of exactly what a forked Python needs to keep running:

* a private copy of the standard library, on the root's own tmpfs, with ``site-packages``
  and the parts no program imports (``test``, ``idlelib``, ``tkinter``, ``config-*``...)
  left empty (the harness runs ``-S``: no third-party package is on the path);
* copies of the interpreter, the shared libraries it has mapped (libc, libm, libpython)
  and those the standard library's extension modules need (``DT_NEEDED``, transitively),
  the ELF loader and ``/etc/ld.so.cache``, each at its host path (symlinks on the way
  recreated);
* ``/dev/null``, ``zero``, ``full``, ``random``, ``urandom``; ``/dev/shm`` is a link to ``/tmp``;
* a fresh ``/proc`` of the sandbox's PID namespace, mounted ``hidepid=invisible`` (a
  candidate sees its own processes only) and ``subset=pid`` where the kernel allows it.

Every other host path (home folders, working trees, datasets, the project itself, other
users' files) is absent: the old root is detached, not covered. The root itself is a
read-only tmpfs, so the only writable folder is ``/tmp``, which each candidate gets as a new,
empty, size-capped tmpfs in a mount namespace of its own (see ``candidate._become_candidate``):
it vanishes with the candidate's last process, so there is nothing to clean up afterwards.

A bound host file shares the host's page cache, and a bound host folder its dentry cache,
with every candidate of every sandbox: a page one candidate read, or a missing name it
looked up, is fast for the next one, a channel of thousands of bits a second (README, "The
code sandbox"). So what a candidate sees is a copy on the root's own tmpfs, whose pages
stay in memory (the zygote's pinner locks them, in case of swap) and which keeps no
negative dentries. What the zygote had mapped before the copy existed (the interpreter,
libc, the extension modules it imported) stays the host's files in every candidate's
address space: the supervisor locks those (:func:`pin`), so each of their pages stays
cached whoever touched it before (``isolation["page_cache"]``). Only the ``/dev`` nodes
and ``/proc`` are mounts.

Standard library only: imported by the harness under ``python -I -S``.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import stat
import struct
import sys
import sysconfig

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MNT_DETACH = 2
CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x20000000, 0x40000000
CLONE_NEWIPC = 0x08000000
PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS, PR_SET_CHILD_SUBREAPER = 4, 38, 36
PR_SET_PDEATHSIG = 1
DEVICES = ("null", "zero", "full", "random", "urandom")
# stdlib folders no candidate program imports: covered, so there is less to pin
UNUSED_STDLIB = ("test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
                 "pydoc_data", "config-{}.{}-{}")  # fmt: skip
# loaded with dlopen by libc itself (thread cancellation unwinds through libgcc_s)
DLOPENED = ("libgcc_s.so.1",)
PROT_READ, MAP_SHARED, MADV_DONTFORK = 1, 1, 10
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


def mapped_libraries() -> set[str]:
    """The shared objects this process has mapped (a fork's candidates inherit them)."""
    libs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            fields = line.split(maxsplit=5)
            path = fields[5].strip() if len(fields) == 6 else ""
            if path.startswith("/") and ".so" in os.path.basename(path):
                libs.add(path)
    return libs


def _needed(path: str) -> list[str]:
    """The ``DT_NEEDED`` names of a 64-bit little-endian ELF shared object ([] otherwise)."""
    try:
        with open(path, "rb") as f:
            data = f.read(64 << 20)
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            return []
        phoff, phentsize, phnum = (
            struct.unpack_from("<Q", data, 32)[0],
            *struct.unpack_from("<HH", data, 54),
        )
        loads, dynamic = [], None
        for i in range(min(phnum, 64)):
            p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
                "<IIQQQQ", data, phoff + i * phentsize
            )
            if p_type == 1:  # PT_LOAD: maps file offsets to addresses
                loads.append((p_vaddr, p_offset, p_filesz))
            elif p_type == 2:  # PT_DYNAMIC
                dynamic = (p_offset, p_filesz)
        if dynamic is None:
            return []
        names, strtab = [], None
        for at in range(dynamic[0], dynamic[0] + dynamic[1], 16):
            tag, value = struct.unpack_from("<qQ", data, at)
            if tag == 0:
                break
            if tag == 1:
                names.append(value)
            elif tag == 5:
                strtab = next((value - v + o for v, o, n in loads if v <= value < v + n), None)
        if strtab is None:
            return []
        out = []
        for offset in names:
            end = data.index(b"\0", strtab + offset)
            out.append(data[strtab + offset : end].decode())
        return out
    except (OSError, struct.error, ValueError, UnicodeDecodeError):
        return []


def _libraries(stdlib: str, extra_dirs: list[str]) -> set[str]:
    """The mapped libraries and everything the stdlib's extension modules need, resolved
    in the folders the loader would search (those of the mapped libraries first)."""
    mapped = mapped_libraries()
    arch = sysconfig.get_config_var("MULTIARCH") or ""
    dirs = [*sorted({os.path.dirname(p) for p in mapped}), *extra_dirs]
    dirs += [d for base in ("/lib", "/usr/lib") for d in (f"{base}/{arch}", base)]
    dirs += ["/lib64", "/usr/lib64"]
    found: set[str] = set()
    todo = list(mapped)
    dynload = os.path.join(stdlib, "lib-dynload")
    with contextlib.suppress(OSError):
        todo += [os.path.join(dynload, n) for n in os.listdir(dynload) if n.endswith(".so")]
    todo += [n for n in DLOPENED]
    while todo:
        name = todo.pop()
        path = name if name.startswith("/") else next(
            (os.path.join(d, name) for d in dirs if os.path.exists(os.path.join(d, name))), None
        )  # fmt: skip
        if path is None or path in found:
            continue
        found.add(path)
        todo += _needed(path)
    return {p for p in found if not (p + "/").startswith(dynload + "/")}


class _Builder:
    def __init__(self, root: str) -> None:
        self.root = root
        self.visible: list[str] = []
        self.covered: list[str] = []
        self.copied: list[str] = []

    def _inside(self, path: str) -> str:
        return self.root + path

    def expose(self, path: str, _depth: int = 0, *, copy: bool = False) -> None:
        """Make ``path`` resolve inside the new root as on the host: each symlink on the way
        is recreated, the real file or folder at the end is bind-mounted read-only (or,
        with ``copy``, the real file copied: see :meth:`copy_tree` for why)."""
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
                self.expose(os.path.join(target, rest) if rest else target, _depth + 1, copy=copy)
                return
        if copy and os.path.isfile(path):
            self.copy_file(path)
        else:
            self.bind(path)

    def copy_file(self, path: str) -> None:
        inside = self._inside(path)
        if os.path.lexists(inside):
            return
        os.makedirs(os.path.dirname(inside), mode=0o755, exist_ok=True)
        with open(path, "rb") as f_in, open(inside, "wb") as out:
            while chunk := f_in.read(1 << 20):
                out.write(chunk)
        os.chmod(inside, os.stat(path).st_mode & 0o755)
        self.copied.append(path)

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

    def copy_tree(self, src: str, skip: set[str]) -> None:
        """Copy the folder ``src`` (a real path) into the new root, which is a tmpfs: its
        pages are never evicted and the tmpfs keeps no negative dentries, so neither a read
        nor a lookup of a missing name leaves a trace the next candidate could time (a bind
        mount of a host folder would share the host's page and dentry caches). Top-level
        names in ``skip`` become empty folders; ``__pycache__`` files for ``-O`` are left out."""
        for folder, dirs, files in os.walk(src):
            inside = self._inside(folder)
            os.makedirs(inside, mode=0o755, exist_ok=True)
            if folder == src:
                for name in [d for d in dirs if d in skip]:
                    dirs.remove(name)
                    os.makedirs(os.path.join(inside, name), mode=0o555)
                    self.covered.append(os.path.join(src, name))
            for name in dirs + files:
                here = os.path.join(folder, name)
                if os.path.islink(here):
                    os.symlink(os.readlink(here), os.path.join(inside, name))
                    if name in dirs:
                        dirs.remove(name)
                elif name in files and ".opt-" not in name:
                    with open(here, "rb") as f_in, open(os.path.join(inside, name), "wb") as out:
                        while chunk := f_in.read(1 << 20):
                            out.write(chunk)
                    os.chmod(os.path.join(inside, name), os.stat(here).st_mode & 0o755)
        self.copied.append(src)

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
    stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    platstdlib = os.path.realpath(sysconfig.get_path("platstdlib"))
    executable = os.path.realpath(sys.executable)
    libdir = sysconfig.get_config_var("LIBDIR") or os.path.join(prefix, "lib")
    libs = sorted(_libraries(stdlib, [libdir]))
    interp = _elf_interpreter(executable)
    # the root holds the copies (about 80 MiB: the standard library and the libraries)
    _mount(b"tmpfs", scratch, b"tmpfs", MS_NOSUID | MS_NODEV, b"size=512m,mode=755")
    b = _Builder(scratch)
    try:
        version = (*sys.version_info[:2], getattr(sys.implementation, "_multiarch", ""))
        skip = {name.format(*version) for name in ("site-packages", *UNUSED_STDLIB)}
        for folder in sorted({stdlib, platstdlib}):
            b.copy_tree(folder, skip)
        for path in (executable, *libs, interp, "/etc/ld.so.cache"):
            if path:
                b.expose(path, copy=True)
        # the name the candidate's ``sys.executable`` holds (``bin/python``, a link), so
        # ``subprocess.run([sys.executable, ...])`` works; a venv's is not exposed (its
        # folder is not the candidate's business)
        named = os.path.abspath(sys.executable)
        if named != executable and named.startswith(os.path.abspath(sys.base_prefix) + "/"):
            b.expose(named, copy=True)
            if os.path.lexists(b._inside(named)):
                b.copied.append(named)
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
        "visible (read-only)": sorted(b.visible + b.copied),
        "copied (private, in memory)": b.copied,
        "covered (empty)": b.covered,
        "proc": proc,
        "writable": "/tmp only: a fresh size-capped tmpfs per candidate",
    }


def pin(visible: list[str], covered: list[str]) -> str:
    """Map and lock every regular file under ``visible`` (host paths, none under
    ``covered``) into this process, so their pages stay cached whoever reads them; return
    what is in force, for the isolation report. Needs ``CAP_IPC_LOCK`` (or a large enough
    ``RLIMIT_MEMLOCK``). The mappings are not inherited by forks (``MADV_DONTFORK``): the
    judge's address-space limit does not count them."""
    mmap_fn = _libc.mmap
    mmap_fn.restype = ctypes.c_void_p
    mmap_fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                        ctypes.c_int, ctypes.c_long]  # fmt: skip
    skip = tuple(c + "/" for c in covered)
    files, total, failed = 0, 0, []
    seen: set[tuple[int, int]] = set()
    for top in visible:
        walk = [top] if not os.path.isdir(top) else [
            os.path.join(d, n) for d, _, names in os.walk(top) for n in names
        ]  # fmt: skip
        for path in walk:
            if (path + "/").startswith(skip):
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            except OSError:
                continue  # a symlink (its target is listed on its own) or unreadable
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode) or not st.st_size or (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                addr = mmap_fn(None, st.st_size, PROT_READ, MAP_SHARED, fd, 0)
                if addr in (None, ctypes.c_void_p(-1).value):
                    failed.append(path)
                    continue
                if _libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(st.st_size)) != 0:
                    failed.append(f"{path} ({os.strerror(ctypes.get_errno())})")
                    continue
                _libc.madvise(ctypes.c_void_p(addr), ctypes.c_size_t(st.st_size), MADV_DONTFORK)
                files += 1
                total += st.st_size
            finally:
                os.close(fd)
    if failed:
        return f"no: {len(failed)} file(s) not pinned, e.g. {failed[0]}"
    return f"pinned: {files} files, {total / (1 << 20):.0f} MiB locked in memory"
