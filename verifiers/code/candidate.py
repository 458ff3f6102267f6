"""The candidate side of the sandbox: what a forked zygote child does to become a candidate,
then runs its code.

Forked by the zygote (``harness.py``) once per job. ``main`` receives its file descriptors,
takes a fresh size-capped tmpfs as ``/tmp`` in a mount namespace of its own, a fresh IPC
namespace (its SysV limits capped), resource limits, no new privileges and its own uid
(``_become_candidate``), then reads its own code and limits from a memfd and runs them: a
``__main__`` script (``_run_script``) or a module whose functions it calls on request,
answering with plain data (``_serve_calls``). Nothing here reads a test or another
candidate's data: the judge (``judge.py``) holds those.

Standard library only: imported by the harness under ``python -I -S``.
"""

from __future__ import annotations

import builtins
import contextlib
import fcntl
import os
import resource
import sys
import traceback

import jail
import wire
from jail import CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWNS, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS

TMPFS_INODES = 1 << 16  # tmpfs caps bytes, not inodes: millions of empty files cost kernel memory
_libc_call = jail.libc_call


class _SetupError(Exception):
    pass


def main(fds: list[int], uid: int | None, tmpfs_bytes: int, ipc_sysctl: int | None,
                    jailed: bool, net_ns: bool) -> int:  # fmt: skip
    """A fork of the zygote: lock down, read its own job, run it. Returns the exit code."""
    try:
        job = _become_candidate(fds, uid, tmpfs_bytes, ipc_sysctl, jailed, net_ns)
    except BaseException as e:
        try:
            os.write(fds[1], b"E" + repr(e).encode()[:500])
        finally:
            os._exit(71)
    if job["mode"] == "call":
        _serve_calls(job["code"], 3, 4, job["limits"]["value_bytes"])
        return 0
    return _run_script(job["code"])


def _become_candidate(fds: list[int], uid: int | None, tmpfs_bytes: int,
                      ipc_sysctl: int | None, jailed: bool, net_ns: bool) -> dict:  # fmt: skip
    """Lock this forked child down; on success, report ready on the setup pipe and close it.

    ``fds``: job memfd, setup pipe, stdin, stdout, stderr, then (call mode) the request and
    response ends of the channel, which end up as fds 3 and 4. ``ipc_sysctl``: the zygote's
    ``/proc/sys/kernel`` when each candidate gets a fresh IPC namespace, else None.
    ``net_ns``: a fresh network namespace too (its counters would otherwise carry data from
    one candidate to the next: ``/proc/self/net/snmp`` counts what the last one sent).
    """
    os.setsid()
    # Fresh namespaces, so nothing outlives the candidate: SysV/POSIX IPC objects, network
    # state and the /tmp tmpfs die with its last process. The zygote proved the kernel allows them, so a
    # refusal here is an infrastructure fault (no signal), not a reason to run less isolated.
    flags = (CLONE_NEWIPC if ipc_sysctl is not None else 0) | (CLONE_NEWNS if jailed else 0)
    flags |= CLONE_NEWNET if net_ns else 0
    if flags and (err := _libc_call("unshare", flags)):
        raise _SetupError(f"namespaces refused: {err}")
    if jailed:
        opts = f"size={tmpfs_bytes},nr_inodes={TMPFS_INODES},mode=700"
        if uid is not None:
            opts += f",uid={uid},gid={uid}"
        if err := _libc_call("mount", b"tmpfs", b"/tmp", b"tmpfs",
                             jail.MS_NOSUID | jail.MS_NODEV, opts.encode()):  # fmt: skip
            raise _SetupError(f"tmpfs refused: {err}")
        os.chdir("/tmp")
    job = wire.unpack(_read_job(fds[0]))
    if ipc_sysctl is not None:
        _cap_ipc(ipc_sysctl, job["limits"]["memory_bytes"])
    if not jailed:  # no mount namespace: a folder the supervisor made and will remove
        os.chdir(job["cwd"])
    # move every source above the targets first: a received fd may sit on 3 or 4
    sources = [fds[2], fds[3], fds[4], *fds[5:7], fds[1]]
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 256) for fd in sources]
    *stdio_and_channel, setup = high
    fds[1] = setup  # where _candidate_main reports a failure from here on
    for target, src in enumerate(stdio_and_channel):
        os.dup2(src, target)  # 0-2 stdin/stdout/stderr, 3-4 the call channel
    os.closerange(len(stdio_and_channel), setup)
    os.closerange(setup + 1, 65536)
    limits = job["limits"]
    wanted = {
        resource.RLIMIT_AS: limits["memory_bytes"],
        resource.RLIMIT_CPU: int(limits["cpu_s"]),
        resource.RLIMIT_FSIZE: limits["file_bytes"],
        resource.RLIMIT_NOFILE: limits["open_files"],
        resource.RLIMIT_CORE: 0,
    }
    # RLIMIT_NPROC counts every process of the real uid: exact with our own uid, relative to
    # what the caller already runs when we could not switch (not root)
    wanted[resource.RLIMIT_NPROC] = limits["processes"] + (
        0 if uid is not None else _own_processes()
    )
    for which, value in wanted.items():
        try:
            hard = value + 1 if which == resource.RLIMIT_CPU else value
            resource.setrlimit(which, (value, hard))
        except (ValueError, OSError) as e:
            raise _SetupError(f"setrlimit({which}) refused: {e}") from None
    if err := _libc_call("prctl", PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0):
        raise _SetupError(f"no_new_privs refused: {err}")
    # what no rlimit counts (its /tmp, pipes, page tables) can still exhaust the host: the
    # OOM killer then takes a candidate, never the trainer. Written with CAP_SYS_RESOURCE
    # (where the container leaves us that), it is also the floor the candidate cannot lower.
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write("1000")
    except OSError as e:
        raise _SetupError(f"oom_score_adj refused: {e}") from None
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        # changing uid clears "dumpable", which makes /proc/self root-owned: give the
        # candidate its own /proc/self back (only its own uid could ptrace it anyway)
        _libc_call("prctl", PR_SET_DUMPABLE, 1, 0, 0, 0)
    os.environ.clear()
    os.write(setup, b"R")
    os.close(setup)  # from here on the candidate can no longer claim a setup failure
    sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.argv = ["candidate"]
    return job


def _cap_ipc(sysctl_dir: int, memory_bytes: int) -> None:
    """Lower the SysV IPC limits of this candidate's own, fresh IPC namespace: shared memory
    to ``memory_bytes`` in all, a few small semaphore sets and message queues."""
    values = {
        "shmmax": memory_bytes,
        "shmall": memory_bytes // os.sysconf("SC_PAGE_SIZE"),
        "shmmni": 64,
        "sem": "250 1024 32 32",  # per set, in all, per semop call, sets
        "msgmni": 16,  # queues of at most msgmnb (16 KiB by default) each
    }
    for name, value in values.items():
        try:
            fd = os.open(name, os.O_WRONLY, dir_fd=sysctl_dir)
            try:
                os.write(fd, str(value).encode())
            finally:
                os.close(fd)
        except OSError as e:
            raise _SetupError(f"IPC limit {name} refused: {e}") from None


def _read_job(fd: int) -> bytes:
    size = os.fstat(fd).st_size
    if size > wire.JOB_BYTES:  # the parent refuses bigger code: never reached
        raise _SetupError(f"job of {size} bytes")
    return os.pread(fd, size, 0)


def _own_processes() -> int:
    me = os.getuid()
    count = 0
    for name in os.listdir("/proc"):
        with contextlib.suppress(OSError):  # processes come and go while we look
            count += name.isdigit() and os.stat(f"/proc/{name}").st_uid == me
    return count


def _run_script(code: str) -> int:
    """stdin/stdout mode: run the program as ``__main__``; return its exit status."""
    status = 0
    try:
        exec(
            compile(code, "<candidate>", "exec"), {"__name__": "__main__", "__builtins__": builtins}
        )
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        status = status or 1
    return status & 0xFF


def _serve_calls(code: str, req_fd: int, resp_fd: int, max_bytes: int) -> None:
    """call mode: load the code once, then answer each request with plain data."""
    ns: dict = {"__name__": "candidate", "__builtins__": builtins}
    load_error = None
    try:
        exec(compile(code, "<candidate>", "exec"), ns)
    except BaseException as e:  # SystemExit included: leaving early is a failure
        load_error = ["load:" + wire.describe(e)[0], wire.describe(e)[1]]
    while True:
        req = wire.read_msg(req_fd, max_bytes)
        if req is None:
            return
        reply = {"id": req.get("id")}
        try:
            if load_error:
                raise _LoadFailed()
            fn = ns.get(req["name"])
            if not callable(fn):
                raise NameError(f"name {req['name']!r} is not defined as a function")
            result = fn(*wire.decode(req["args"]), **wire.decode(req["kwargs"]))
            reply["value"] = wire.encode(result)
        except _LoadFailed:
            reply["error"] = load_error
        except wire.WireError as e:
            # not plain data (a ``re.Match``): send its truth and a repr, all that a test
            # such as ``assert f(x)`` asks of it; the judge's stand-in equals nothing
            try:
                reply["opaque"] = [bool(result), repr(result)[:wire.OPAQUE_REPR_CHARS]]
                if type(reply["opaque"][1]) is not str:
                    raise TypeError("repr did not return a str")
            except BaseException as e2:
                reply.pop("opaque", None)
                reply["error"] = ["UnsupportedReturn", f"{e}; {wire.describe(e2)[0]}"]
        except BaseException as e:
            reply["error"] = wire.describe(e)
        try:
            data = wire.pack(reply)
        except BaseException as e:  # e.g. a str with lone surrogates
            data = wire.pack({**reply, "value": None, "error": ["UnsupportedReturn", str(e)]})
        wire.write_all(resp_fd, data)


class _LoadFailed(Exception):
    pass
