"""The sandbox side: a supervisor, a clean zygote and one locked-down process per candidate.

Run by ``verifiers.code.sandbox`` as ``python -I -S harness.py CONFIG_JSON`` with an empty
environment; it speaks framed JSON (``wire.pack``) on fd 0 (jobs in) and fd 1 (results out).
Standard library only: ``-S`` keeps site-packages out of the candidate's reach.

The invariant
-------------
**A candidate's address space never holds test text, an expected value, another candidate's
code or output, or the trusted side's bookkeeping.** All it ever holds is the zygote's
pristine state, its own code and limits, and the arguments of the calls made to it. So a
candidate that walks its frames, scans ``gc.get_objects()`` or reads ``/proc/self/mem`` finds
nothing to copy its answers from (``tests/test_code_attacks.py`` plants markers and looks).

How the processes keep it, all in the sandbox's own network, mount, PID and IPC namespaces
(each where the kernel allows it; the report says which):

* the **supervisor** (trusted, the PID namespace's init) reads the jobs, forks the judge,
  reads the candidate's output, enforces the deadline, kills and reaps; it keeps the host
  files every candidate inherits mapped locked in memory (``jail.pin``) and moves the pid
  and inode counters by a random amount before each candidate;
* the **zygote** is forked by the supervisor *before the first job is read*, builds the
  allowlisted root of private copies (``jail.py``; a child of it, the pinner, keeps them
  locked in memory), installs a seccomp filter every candidate inherits (``seccomp.py``:
  no kernel keyrings, which belong to the uid and would outlive the candidate, no memfds,
  whose memory no limit counts, no user namespace, nothing that probes or evicts the page
  cache, no file locks or inotify), pre-imports common modules, and from then on only ever
  receives file descriptors and the one-byte order to fork: it never reads a job, a test, a
  candidate's code or output. Each candidate is a fork of this clean process;
* the **candidate** (``candidate.py``) reads its own code and limits from a memfd passed to it, takes a fresh
  size-capped tmpfs as ``/tmp`` (its cwd, and its only writable folder) in a mount
  namespace of its own, a fresh IPC namespace, resource limits, no new privileges and its
  own uid (not root), then runs the code: a ``__main__`` script on a stdin memfd, or a module
  whose functions it calls on request, answering with plain data (``wire.encode``);
* the **judge** (call/assert jobs; forked from the supervisor, trusted, never runs candidate
  code) executes the tests: a dataset's ``check(candidate)`` or ``assert f(x) == y`` code runs
  here with the entry point (and ``candidate``) bound to a proxy whose calls cross to the
  candidate as plain data and come back through the strict ``wire.decode``. Every other name
  the test code uses resolves in the judge (``judge.py``): the test's own helpers and imports (HumanEval's
  ``poly`` or ``encode_cyclic`` from the task prompt, MBPP's ``test_imports``), builtins and
  the standard library, never something the candidate defined. Nothing the candidate sends
  is ever unpickled or evaluated: only ``json`` and the tagged plain types of ``wire``.

The verdict is decided in the judge or in the parent, never in a process the candidate can
touch. When a job ends (judge done, candidate exited, deadline or output cap), the
supervisor kills the candidate's process group and every process of its uid, has the zygote
reap the candidate and reaps the rest itself. The candidate's files die with its mount
namespace, so a hostile tree (3000 levels deep, mode 000, symlink loops, a full disk) has
nothing to break. If the supervisor's own state is ever in doubt (the zygote gone or
hanging, a process that would not die), it says so in its reply and exits, and the parent
starts a fresh sandbox for the next job.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import secrets
import select
import signal
import socket
import stat
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import candidate  # noqa: E402
import jail  # noqa: E402  (the package is not importable under -I -S; its folder is)
import judge as test_judge  # noqa: E402
import seccomp  # noqa: E402
import wire  # noqa: E402
from jail import (  # noqa: E402
    CLONE_NEWIPC,
    CLONE_NEWNET,
    CLONE_NEWNS,
    CLONE_NEWPID,
    PR_SET_CHILD_SUBREAPER,
    PR_SET_PDEATHSIG,
)

del sys.path[0]  # the candidate must not import our modules

# the CPUs whose inode counters are scrambled before each job (_scramble_inode_numbers):
# all of them up to 16, about 1 ms each; past that the cost per job is reported, not paid
SCRAMBLE_CPUS = sorted(os.sched_getaffinity(0)) if len(os.sched_getaffinity(0)) <= 16 else []
# A test's deadline grows by the time the candidate spent waiting for a CPU, and a whole
# job never runs past LOAD_SLACK x timeout: a reward's own deadline (the rubric's, 2x the
# sandbox's by default) must still hold, or a slow program would be "no signal", not 0
LOAD_SLACK = 1.5
ZYGOTE_TIMEOUT_S = 10.0  # fork or reap: a zygote slower than this is in doubt
WARM_MODULES = (
    "math", "re", "collections", "itertools", "functools", "heapq", "bisect", "string",
    "typing", "fractions", "decimal", "statistics", "random", "copy", "operator", "json",
    "hashlib", "datetime", "array", "dataclasses", "cmath", "io", "traceback",
)  # fmt: skip
_libc_call = jail.libc_call


# ----------------------------------------------------------------------------- supervisor setup


def _isolate(config: dict) -> dict:
    """Enter namespaces; return what is in force."""
    report: dict = {"uid": config.get("uid"), "python": "-I -S", "env": "empty"}
    want = {"net": CLONE_NEWNET, "mount": CLONE_NEWNS, "pid": CLONE_NEWPID, "ipc": CLONE_NEWIPC}
    for name, flag in want.items():
        if not config.get(f"{name}ns", True):
            report[f"{name}_namespace"] = "disabled"
            continue
        err = _libc_call("unshare", flag)
        report[f"{name}_namespace"] = err is None and "yes" or f"no ({err})"
    return report


def _lock_supervisor_filesystem() -> str | None:
    """Make every mount private and read-only for the supervisor and the judge (defence in
    depth: the judge runs dataset test code). Returns an error text, or None."""
    if err := _libc_call("mount", b"none", b"/", None, jail.MS_REC | jail.MS_PRIVATE, None):
        return f"make-private failed: {err}"
    failed = []
    with open("/proc/self/mountinfo") as f:
        mounts = [line.split() for line in f]
    for fields in mounts:
        point, opts = fields[4].encode(), set(fields[5].split(","))
        flags = jail.MS_REMOUNT | jail.MS_BIND | jail.MS_RDONLY
        for opt, bit in (("nosuid", jail.MS_NOSUID), ("nodev", jail.MS_NODEV),
                         ("noexec", jail.MS_NOEXEC)):  # fmt: skip
            if opt in opts:
                flags |= bit  # a bind remount must keep the locked flags or it is refused
        if _libc_call("mount", None, point, None, flags, None):
            failed.append(fields[4])
    return f"not read-only for the judge: {','.join(failed[:8])}" if failed else None


# ----------------------------------------------------------------------------- zygote


class _Zygote:
    """The supervisor's handle on the clean zygote: a SOCK_SEQPACKET pair, fds and pids only."""

    def __init__(self, sock: socket.socket, pid: int) -> None:
        self.sock, self.pid = sock, pid

    def _ask(self, message: bytes, fds: list[int] = (), timeout: float = ZYGOTE_TIMEOUT_S):
        try:
            if fds:
                socket.send_fds(self.sock, [message], list(fds))
            else:
                self.sock.send(message)
            if not select.select([self.sock], [], [], timeout)[0]:
                return None
            reply = self.sock.recv(16)
        except OSError:
            return None
        return struct.unpack(">i", reply[1:5])[0] if len(reply) == 5 else None

    def fork(self, fds: list[int]) -> int | None:
        """A new candidate holding ``fds``; its pid, or None if the zygote failed."""
        pid = self._ask(b"F", fds)
        return pid if pid and pid > 0 else None

    def reap(self, pid: int, timeout: float) -> int | None:
        """Wait for a (killed or exited) candidate; its exit code, or None if in doubt."""
        code = self._ask(b"W" + struct.pack(">i", pid), timeout=timeout)
        return None if code is None or code == -1000 else code


def _start_zygote(config: dict, jailed: bool) -> tuple[_Zygote, dict]:
    """Fork the zygote now, before any job exists; return its handle and its report."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            ours.close()
            code = _zygote_main(theirs, config, jailed)
        finally:
            os._exit(code)
    theirs.close()
    zygote = _Zygote(ours, pid)
    ready = select.select([ours], [], [], 60.0)[0]
    hello = ours.recv(1 << 16) if ready else b""
    try:
        report = json.loads(hello)
    except ValueError:
        report = {"filesystem": "the zygote did not start"}
    return zygote, report


def _zygote_main(sock: socket.socket, config: dict, jailed: bool) -> int:
    """Build the candidates' root, then fork one candidate per order; nothing else."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the supervisor's protocol pipes: never the zygote's to touch
        os.dup2(null, fd)
    os.close(null)
    report: dict = {}
    ipc_sysctl = None
    if config.get("ipc_ns", False):
        # a fresh IPC namespace starts with SysV limits in the terabytes, memory RLIMIT_AS does
        # not count: each candidate lowers its own through this folder (its /proc shows only
        # processes), whose files name the IPC namespace of whoever opens them
        try:
            ipc_sysctl = os.open("/proc/sys/kernel", os.O_PATH | os.O_DIRECTORY)
            report["ipc_limits"] = "yes: SysV shared memory within memory_bytes"
        except OSError as e:
            report["ipc_limits"] = f"no ({e})"
    if jailed:
        try:
            if err := _libc_call("unshare", CLONE_NEWNS):
                raise jail.JailError(f"unshare: {err}")
            report["filesystem"] = fs = jail.build()
            # the copy is in memory already; locked, it stays there even with swap on. A
            # child holds the locks: 1500 mappings in the zygote would slow every fork
            report["page_cache_copy"] = _start_pinner(fs)
        except (jail.JailError, OSError) as e:
            # the zygote's view is half built: refuse to serve rather than run candidates in it
            sock.send(json.dumps({"filesystem": f"allowlist failed: {e}"}).encode())
            return 71
    else:
        report["filesystem"] = (
            "host (no mount namespace): what the candidate's uid may read or write"
        )
    report["seccomp"] = seccomp.install()  # inherited by every candidate, which cannot undo it
    sock.send(json.dumps(report).encode())
    uid, size = config.get("uid"), int(config.get("tmpfs_bytes", 64 << 20))
    net_ns = config.get("net_ns", False)
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(sock, 16, 8)
        except OSError:
            return 0
        if not msg:
            return 0
        if msg == b"F":
            try:
                pid = os.fork()
            except OSError:
                pid = -1
            if pid == 0:
                code = 71
                try:
                    sock.close()  # a candidate must never be able to order a fork
                    code = candidate.main(fds, uid, size, ipc_sysctl, jailed, net_ns)
                finally:
                    os._exit(code)
            for fd in fds:
                os.close(fd)
            sock.send(b"P" + struct.pack(">i", pid))
        elif msg[:1] == b"W" and len(msg) == 5:
            try:
                _, status = os.waitpid(struct.unpack(">i", msg[1:])[0], 0)
                code = os.waitstatus_to_exitcode(status)
            except ChildProcessError:
                code = -1000
            sock.send(b"S" + struct.pack(">i", code))
        else:
            for fd in fds:
                os.close(fd)
            sock.send(b"?")


def _start_pinner(fs: dict) -> str:
    """Fork a child that locks the stdlib copy in memory (``jail.pin``) and then only waits
    to die with the zygote (``PR_SET_PDEATHSIG``); return what it reports."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(r)
            _libc_call("prctl", PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            report = jail.pin(fs["copied (private, in memory)"], fs["covered (empty)"])
            os.write(w, report.encode()[:500])
            os.close(w)
            while True:
                signal.pause()
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    os.close(w)
    ready = select.select([r], [], [], 60.0)[0]
    report = os.read(r, 600).decode(errors="replace") if ready else ""
    os.close(r)
    return report or "no (the pinner did not report)"


# ----------------------------------------------------------------------------- jobs


class _Capture:
    def __init__(self, fd: int, keep: int) -> None:
        self.fd, self.keep, self.data, self.total, self.open = fd, keep, bytearray(), 0, True

    def drain(self) -> None:
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            self.open = False
            return
        self.total += len(chunk)
        if len(self.data) < self.keep:
            self.data += chunk[: self.keep - len(self.data)]

    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


def _fork(fn) -> int:
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = fn() or 0
        except BaseException:
            code = 70
        finally:
            os._exit(code)
    return pid


def _sweep(uid: int | None, pgids: list[int], zygote: _Zygote, cand: int | None) -> tuple:
    """Kill the job's process groups and every process of the candidate uid, and reap them.

    Returns ``(candidate exit code or None, doubt)``; ``doubt`` names what went wrong when
    the sandbox can no longer vouch for its own state. A fork bomb can race one pass of
    ``kill(-1)`` and daemons leave the process group, so this repeats until the uid owns
    nothing and no child of ours is left unreaped.
    """

    def kill_all_of_uid() -> int:
        os.setresuid(uid, uid, uid)
        with contextlib.suppress(ProcessLookupError):
            os.kill(-1, signal.SIGKILL)  # as uid: every process we may signal, i.e. the uid's
        return 0

    give_up = time.monotonic() + 10.0  # the whole sweep: sandbox.GRACE_S must stay above this
    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    code = zygote.reap(cand, timeout=5.0) if cand is not None else None
    doubt = "the zygote did not reap the candidate" if cand is not None and code is None else ""
    waiting = set(pgids[1:])  # the judge: our child, like the orphans the candidate left
    while True:
        found = 0
        if uid is not None:
            os.waitpid(_fork(kill_all_of_uid), 0)
            # kill(-1) succeeds whenever another process exists (the zygote), so it cannot
            # say whether the uid still runs anything: /proc can
            found = _runs_as(uid)
        while True:  # we are the namespace's init (or the subreaper): collect every orphan
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break  # the rest are alive (the zygote) or still dying after SIGKILL
            waiting.discard(pid)
            if pid == zygote.pid:
                doubt = "the zygote exited"
        if not found and not waiting:
            return code, doubt
        if time.monotonic() > give_up:
            return code, doubt or "processes of the candidate would not die"
        time.sleep(0.002)


def _runs_as(uid: int) -> bool:
    """Whether a process with real uid ``uid`` exists (read from ``status``: unlike the
    owner of ``/proc/PID``, a process cannot hide it by making itself non-dumpable)."""
    want = f"Uid:\t{uid}\t"
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status") as f:
                    if any(line.startswith(want) for line in f):
                        return True
            except OSError:
                continue  # gone while we looked
    return False


def _remove_tree(path: str, deadline_s: float = 10.0) -> bool:
    """Delete a folder a hostile program filled; never raises, never recurses.

    Only for sandboxes without a mount namespace (otherwise the candidate's tmpfs dies with
    it). Subfolders are moved up to ``path`` itself before being emptied, so a 3000-level tree
    never makes a long path or a deep stack; nothing is followed (symlink loops are unlinked
    as links); folders are made writable first (mode 000). True when it is all gone.
    """
    give_up = time.monotonic() + deadline_s
    with contextlib.suppress(OSError):
        top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            counter = 0
            pending = [n for n in _listdir_fd(top)]
            while pending and time.monotonic() < give_up:
                name = pending.pop()
                try:
                    st = os.stat(name, dir_fd=top, follow_symlinks=False)
                    if not stat.S_ISDIR(st.st_mode):
                        os.unlink(name, dir_fd=top)
                        continue
                    os.chmod(name, 0o700, dir_fd=top, follow_symlinks=False)
                    sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=top)
                    try:
                        inner = _listdir_fd(sub)
                        for child in inner:
                            counter += 1
                            flat = f".rm{counter}"
                            os.rename(child, flat, src_dir_fd=sub, dst_dir_fd=top)
                            pending.append(flat)
                    finally:
                        os.close(sub)
                    if inner:
                        pending.insert(0, name)  # empty now, unless it refilled: retry later
                    else:
                        os.rmdir(name, dir_fd=top)
                except OSError:
                    continue
        finally:
            os.close(top)
        os.rmdir(path)
    return not os.path.lexists(path)


def _listdir_fd(fd: int) -> list[str]:
    with os.scandir(fd) as it:
        return [e.name for e in it]


def _run_delay(pid: int) -> float:
    """Seconds ``pid`` has spent runnable but waiting for a CPU (``/proc/PID/schedstat``);
    0.0 once it is gone."""
    try:
        with open(f"/proc/{pid}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def _complete_frames(buf: bytes | bytearray) -> int:
    """How many whole framed messages ``buf`` holds."""
    count, at = 0, 0
    while len(buf) - at >= 4:
        at += 4 + wire.header_length(bytes(buf[at : at + 4]))
        if at > len(buf):
            break
        count += 1
    return count


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name)
    wire.write_all(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _scramble_last_pid(pid_max: int) -> None:
    """Hand the next candidate an unpredictable pid. Pids in our PID namespace are otherwise
    sequential, so a candidate's pid says how many processes the one before it forked: a
    channel from one candidate to the next. Unseeded on purpose: a seed would make the pid
    predictable again."""
    with contextlib.suppress(OSError), open("/proc/sys/kernel/ns_last_pid", "w") as f:
        f.write(str(300 + secrets.randbelow(max(1, pid_max - 1300))))


def _scramble_inode_numbers(cpus: list[int]) -> None:
    """Burn a random number (below the kernel's batch of 1024) of inode numbers on each CPU
    a candidate may run on. Pipes and sockets are numbered from a per-CPU counter, so
    otherwise a candidate pinned to a CPU reads in ``fstat(pipe).st_ino`` how many the one
    before it created there: a channel from one candidate to the next. Unseeded on purpose,
    as for pids."""
    if not cpus:
        return
    mine = os.sched_getaffinity(0)
    try:
        for cpu in cpus:
            os.sched_setaffinity(0, {cpu})
            for _ in range(secrets.randbelow(1024)):
                r, w = os.pipe()
                os.close(r)
                os.close(w)
    except OSError:
        pass  # a CPU taken offline: the others are scrambled
    finally:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, mine)


def _run_job(job: dict, uid: int | None, zygote: _Zygote, jailed: bool,
             pid_max: int | None = None) -> dict:  # fmt: skip
    """Run one job; ``pid_max`` is set when the PID namespace is ours to scramble."""
    limits = job["limits"]
    call_mode = job["mode"] == "call"
    # what the candidate may hold: its own code and limits (never the tests or the stdin of
    # other tests), in a memfd it reads after the fork
    own = {"mode": job["mode"], "code": job["code"], "limits": limits}
    if call_mode:
        # each test has its own wall-time budget (below), and its own share of CPU time
        own["limits"] = {**limits, "cpu_s": limits["cpu_s"] * max(1, len(job["tests"]))}
    workdir = None
    if not jailed:
        workdir = tempfile.mkdtemp(prefix="rlvr-cand-")
        if uid is not None:
            os.chown(workdir, uid, uid)
        own["cwd"] = workdir
    job_fd = _memfd("job", wire.pack(own)[4:])
    setup_r, setup_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    if call_mode:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        res_r, res_w = os.pipe()
        stdin_fd = os.open(os.devnull, os.O_RDONLY)
        theirs = [job_fd, setup_w, stdin_fd, out_w, err_w, req_r, resp_w]
    else:
        res_r = -1
        stdin_fd = _memfd("stdin", job["stdin"].encode("utf-8", errors="surrogatepass"))
        theirs = [job_fd, setup_w, stdin_fd, out_w, err_w]
    start = time.monotonic()
    deadline = start + job["timeout"]
    if pid_max:
        _scramble_last_pid(pid_max)
    _scramble_inode_numbers(SCRAMBLE_CPUS)
    cand = zygote.fork(theirs)
    for fd in theirs:
        os.close(fd)
    pgids = [cand] if cand else []
    judge = None
    if call_mode and cand:

        def judge_main() -> int:
            os.setsid()
            zygote.sock.close()
            for fd in (res_r, setup_r, out_r, err_r):
                os.close(fd)
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1):  # the parent's protocol pipes are the supervisor's alone
                os.dup2(null, fd)
            lim = limits["judge_memory_bytes"]
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
            test_judge.run(job, req_w, resp_r, res_w)
            return 0

        judge = _fork(judge_main)
        pgids.append(judge)
    if call_mode:
        for fd in (req_w, resp_r, res_w):
            os.close(fd)

    result: dict = {"status": "ok", "tests": []}
    # setup handshake: only a trusted pre-exec write can claim an infrastructure failure
    ready = b""
    while cand:
        r, _, _ = select.select([setup_r], [], [], max(0.0, deadline - time.monotonic()))
        if not r:
            break
        chunk = os.read(setup_r, 600)
        if not chunk:
            break
        ready += chunk
        if ready[:1] == b"R":
            break
    os.close(setup_r)
    if ready[:1] != b"R":
        _, doubt = _sweep(uid, pgids, zygote, cand)
        for fd in (out_r, err_r) + ((res_r,) if call_mode else ()):
            os.close(fd)
        if workdir:
            _remove_tree(workdir)
        why = ready[1:].decode(errors="replace") if ready[:1] == b"E" else "no handshake"
        why = why if cand else "the zygote did not fork"
        reply = {"status": "no_signal", "reason": f"sandbox setup failed: {why}", "tests": []}
        if doubt or not cand:
            reply["restart"] = doubt or why
        return reply

    keep = limits["excerpt_bytes"]
    out, err = (
        _Capture(out_r, limits["stdout_bytes"] if not call_mode else keep),
        _Capture(err_r, keep),
    )
    pidfd = os.pidfd_open(cand)  # not our child (the zygote's): a pidfd still says when it ends
    watched = {out_r: out, err_r: err}
    res_buf = bytearray()
    reported = 0
    # time the candidate spent waiting for a CPU (a loaded machine) extends its deadline,
    # up to LOAD_SLACK times the budget: a correct but slow program is not failed by load
    waited, granted, cap = _run_delay(cand), 0.0, job["timeout"] * (LOAD_SLACK - 1)
    job_end = start + job["timeout"] * LOAD_SLACK  # every test together, stretched or not
    res_open = call_mode
    cand_done = False
    for fd in (out_r, err_r) + ((res_r,) if call_mode else ()):
        os.set_blocking(fd, False)
    while True:
        if call_mode and not res_open:
            break  # the judge has reported every test
        if not call_mode and cand_done and not out.open and not err.open:
            break
        left = deadline - time.monotonic()
        if left <= 0 and (extra := min(cap, _run_delay(cand) - waited) - granted) > 0.01:
            extra = min(extra, job_end - deadline)
            if extra > 0.01:
                deadline, granted = deadline + extra, granted + extra
                continue
        if left <= 0:
            what = " for one test" if call_mode else ""
            result.update(status="timeout", reason=f"wall time over {job['timeout']:g}s{what}")
            break
        fds_now = [fd for fd, c in watched.items() if c.open] + [res_r] * res_open
        if not cand_done:
            fds_now.append(pidfd)
        r, _, _ = select.select(fds_now, [], [], left)
        for fd in r:
            if fd == pidfd:
                cand_done = True
                if not call_mode:
                    # grandchildren may hold stdout open: what is buffered now is the output
                    for c in (out, err):
                        while c.open and select.select([c.fd], [], [], 0)[0]:
                            before = c.total
                            c.drain()
                            if c.total == before:
                                break
                        c.open = False
            elif fd in watched:
                watched[fd].drain()
            else:
                try:
                    chunk = os.read(res_r, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    res_open = False
                res_buf += chunk
                done = _complete_frames(res_buf)
                if done > reported:  # a test was judged: the next one gets a full budget
                    reported = done
                    deadline = min(time.monotonic() + job["timeout"], job_end)
                    waited, granted = _run_delay(cand), 0.0
        if out.total + err.total > limits["output_bytes"]:
            result.update(status="output_limit", reason="captured output over the cap")
            break
    code, doubt = _sweep(uid, pgids, zygote, cand)
    for fd in (out_r, err_r, pidfd) + ((res_r,) if call_mode else ()):
        os.close(fd)
    if workdir and not _remove_tree(workdir):
        doubt = doubt or f"could not remove {workdir}"
    if doubt:
        result["restart"] = doubt
    if call_mode:
        view = bytes(res_buf)
        while len(view) >= 4:
            size = wire.header_length(view[:4])
            if len(view) < 4 + size:
                break
            result["tests"].append(wire.unpack(view[4 : 4 + size]))
            view = view[4 + size :]
    result.update(
        exit_status=code if cand_done and not call_mode else None,
        stdout=out.text(),
        stdout_total=out.total,
        stderr=err.text()[:keep],
        stderr_total=err.total,
        wall=time.monotonic() - start,
    )
    return result


def main() -> None:
    config = json.loads(sys.argv[1])
    isolation = _isolate(config)
    if isolation["pid_namespace"] == "yes":
        # the first child of the namespace is its init: it serves, we only wait for it
        child = os.fork()
        if child:
            os.closerange(0, 3)
            _, status = os.waitpid(child, 0)
            os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    else:
        _libc_call("prctl", PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # the allowlist needs a mount namespace only; without a PID namespace its /proc shows the
    # host's PID space, where hidepid still hides every process but the candidate's own
    jailed = isolation["mount_namespace"] == "yes"
    if jailed:
        if err := _lock_supervisor_filesystem():
            isolation["judge_filesystem"] = err
        if isolation["pid_namespace"] == "yes":
            flags = jail.MS_NOSUID | jail.MS_NODEV | jail.MS_NOEXEC
            _libc_call("mount", b"proc", b"/proc", b"proc", flags, None)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for name in WARM_MODULES:
        with contextlib.suppress(ImportError):
            __import__(name)
    config["ipc_ns"] = isolation["ipc_namespace"] == "yes"
    config["net_ns"] = isolation["net_namespace"] == "yes"
    pid_max = None
    if isolation["pid_namespace"] == "yes":
        with contextlib.suppress(OSError, ValueError), open("/proc/sys/kernel/pid_max") as f:
            pid_max = int(f.read())
    isolation["candidate_pid"] = "random" if pid_max else "sequential"
    isolation["inode_numbers"] = (
        f"scrambled on {len(SCRAMBLE_CPUS)} cpus before each job"
        if SCRAMBLE_CPUS
        else "not scrambled (over 16 cpus): a channel from one candidate to the next"
    )
    zygote, report = _start_zygote(config, jailed)
    isolation.update(report)
    fs = report.get("filesystem")
    if isinstance(fs, dict):
        # every file a candidate sees stays cached, whoever read it before (jail.pin)
        # what every candidate inherits mapped from the host stays cached (jail.pin)
        mapped = sorted(jail.mapped_libraries() | {os.path.realpath(sys.executable)})
        isolation["page_cache"] = jail.pin(mapped, [])
    net = ", net" if config["net_ns"] else ""
    isolation["candidate_namespaces"] = ("mount (own /tmp tmpfs), ipc" if jailed else "ipc") + net
    wire.write_all(1, wire.pack({"hello": isolation}))
    while True:
        try:
            job = wire.read_msg(0, 1 << 30)
        except wire.WireError:
            job = None
        if job is None:
            break
        try:
            reply = _run_job(job, config.get("uid"), zygote, jailed, pid_max)
        except BaseException as e:
            reply = {"status": "no_signal", "reason": f"sandbox error: {wire.describe(e)}",
                     "restart": "sandbox error"}  # fmt: skip
        wire.write_all(1, wire.pack(reply))
        if reply.get("restart"):
            break  # the parent starts a fresh sandbox; ours cannot vouch for its state


if __name__ == "__main__":
    main()
