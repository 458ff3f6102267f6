"""The sandbox side: a zygote that forks one locked-down process per candidate.

Run by ``verifiers.code.sandbox`` as ``python -I -S harness.py CONFIG_JSON`` with an empty
environment; it speaks framed JSON (``wire.pack``) on fd 0 (jobs in) and fd 1 (results out).
Standard library only: ``-S`` keeps site-packages out of the candidate's reach.

At start, as root, the zygote moves itself into new network, mount, PID and IPC namespaces
(each where the kernel allows it), remounts every filesystem read-only and puts fresh size-capped
tmpfs over the world-writable directories, then pre-imports common modules so a fork is warm.
For each job it forks:

* the **candidate**: own session and process group, fresh temp dir, its own IPC namespace
  (SysV shared memory, message queues and semaphores, POSIX message queues: none outlive it),
  resource limits, no new privileges, its own uid (not root), stdin/stdout/stderr on pipes; it runs the code and then
  answers function-call requests with plain data (``wire.encode``) on a private channel;
* the **judge** (call/assert jobs only): trusted, never runs candidate code; it executes the
  tests (including a dataset's ``check(candidate)`` or ``assert f(x) == y`` code) with the
  entry point bound to a proxy whose calls cross into the candidate and come back decoded by
  the strict ``wire.decode``. The verdict is decided here or in the parent, never in a
  process the candidate can touch.

When the job ends (judge done, candidate exited, deadline or output cap), the zygote kills
both process groups, then every process of the candidate's uid (``kill(-1)`` as that uid),
reaps, removes the temp dir and reports.
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import json
import os
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wire  # noqa: E402  (the package is not importable under -I -S; its folder is)

del sys.path[0]  # the candidate must not import our modules

CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x20000000, 0x40000000
CLONE_NEWIPC = 0x08000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_SET_NO_NEW_PRIVS, PR_SET_CHILD_SUBREAPER = 38, 36
WRITABLE_DIRS = ("/tmp", "/var/tmp", "/run/lock", "/dev/shm")
WARM_MODULES = (
    "math", "re", "collections", "itertools", "functools", "heapq", "bisect", "string",
    "typing", "fractions", "decimal", "statistics", "random", "copy", "operator", "json",
    "hashlib", "datetime", "array", "dataclasses", "cmath", "io", "traceback",
)  # fmt: skip
_libc = ctypes.CDLL(None, use_errno=True)


def _libc_call(name: str, *args) -> str | None:
    """Call a libc function; return None on success or the error text."""
    if getattr(_libc, name)(*args) != 0:
        return os.strerror(ctypes.get_errno())
    return None


# ----------------------------------------------------------------------------- framing


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_msg(fd: int, max_bytes: int) -> dict | None:
    """Read one framed message; None on EOF. Raises ``wire.WireError`` if oversized."""
    header = _read_exact(fd, 4)
    if header is None:
        return None
    size = wire.header_length(header)
    if size > max_bytes:
        raise wire.WireError(f"message of {size} bytes exceeds the {max_bytes}-byte cap")
    body = _read_exact(fd, size)
    if body is None:
        return None
    return wire.unpack(body)


# ----------------------------------------------------------------------------- zygote setup


def _isolate(config: dict) -> dict:
    """Enter namespaces and lock the filesystem down; return what is in force."""
    report: dict = {"uid": config.get("uid"), "python": "-I -S", "env": "empty"}
    want = {"net": CLONE_NEWNET, "mount": CLONE_NEWNS, "pid": CLONE_NEWPID, "ipc": CLONE_NEWIPC}
    for name, flag in want.items():
        if not config.get(f"{name}ns", True):
            report[f"{name}_namespace"] = "disabled"
            continue
        err = _libc_call("unshare", flag)
        report[f"{name}_namespace"] = err is None and "yes" or f"no ({err})"
    report["filesystem"] = "host (no mount namespace)"
    if report["mount_namespace"] == "yes":
        report["filesystem"] = _lock_filesystem(config)
    return report


def _lock_filesystem(config: dict) -> str:
    if err := _libc_call("mount", b"none", b"/", None, MS_REC | MS_PRIVATE, None):
        return f"host (make-private failed: {err})"
    notes = []
    if stdlib := _expose_stdlib():
        notes.append(stdlib)
    failed = []
    with open("/proc/self/mountinfo") as f:
        mounts = [line.split() for line in f]
    for fields in mounts:
        point, opts = fields[4].encode(), set(fields[5].split(","))
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for opt, bit in (("nosuid", MS_NOSUID), ("nodev", MS_NODEV), ("noexec", MS_NOEXEC)):
            if opt in opts:
                flags |= bit  # a bind remount must keep the locked flags or it is refused
        if _libc_call("mount", None, point, None, flags, None):
            failed.append(fields[4])
    size = f"size={int(config.get('tmpfs_bytes', 64 << 20))},mode=1777".encode()
    for d in WRITABLE_DIRS:
        if os.path.isdir(d) and _libc_call(
            "mount", b"tmpfs", d.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, size
        ):
            failed.append(d)
    if failed:
        notes.append("not read-only: " + ",".join(failed[:8]))
    if hidden := _hide(config.get("hide") or []):
        notes.append(hidden)
    return "; ".join(["read-only except size-capped tmpfs on " + ",".join(WRITABLE_DIRS), *notes])


def _hide(paths: list[str]) -> str | None:
    """Cover each folder with an empty read-only tmpfs: dataset folders hold the reference
    solutions. One that holds the Python the candidate runs (or is ``/``) stays visible."""
    prefix = os.path.realpath(sys.base_prefix) + "/"
    hidden, kept = [], []
    for path in paths:
        if path == "/" or prefix.startswith(path.rstrip("/") + "/") or not os.path.isdir(path):
            kept.append(path)
            continue
        flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
        if _libc_call("mount", b"tmpfs", path.encode(), b"tmpfs", flags, b"size=4k,mode=555"):
            kept.append(path)
        else:
            hidden.append(path)
    notes = [f"hidden: {','.join(hidden)}"] if hidden else []
    if kept:
        notes.append(f"not hidden: {','.join(kept)}")
    return "; ".join(notes) or None


def _expose_stdlib() -> str | None:
    """Let the candidate's uid read the standard library when it lives under a private
    folder (pyenv in /root): cover that folder with an empty tmpfs and bind the Python
    prefix back at the same path. The rest of that folder (a home dir) becomes invisible."""
    prefix = os.path.realpath(sys.base_prefix)
    parts = prefix.split("/")
    blocked = next(
        (d for d in ("/".join(parts[:i]) for i in range(2, len(parts) + 1))
         if not os.stat(d).st_mode & 0o001),
        None,
    )  # fmt: skip
    if blocked is None:
        return None
    stage = b"/tmp"  # a scratch tmpfs, covered later by the candidates' own /tmp
    steps = [
        ("mount", b"tmpfs", stage, b"tmpfs", 0, b"size=1m,mode=700"),
        ("mkdir", stage + b"/py"),
        ("mount", prefix.encode(), stage + b"/py", None, MS_BIND | MS_REC, None),
        ("mount", b"tmpfs", blocked.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"size=1m,mode=755"),
        ("makedirs", prefix),
        ("mount", stage + b"/py", prefix.encode(), None, MS_BIND | MS_REC, None),
        ("umount2", stage + b"/py", 2),
        ("umount2", stage, 2),
    ]
    for name, *args in steps:
        if name == "mkdir":
            os.mkdir(args[0])
        elif name == "makedirs":
            os.makedirs(args[0], mode=0o755, exist_ok=True)
        elif err := _libc_call(name, *args):
            return f"stdlib under {blocked} not exposed ({name}: {err})"
    return f"{blocked} hidden except {prefix}"


# ----------------------------------------------------------------------------- candidate


class _SetupError(Exception):
    pass


def _become_candidate(job: dict, tmpdir: str, uid: int | None, fds: dict, ipc_ns: bool) -> None:
    """Lock this forked child down; on success, report ready on the setup pipe and close it."""
    os.setsid()
    # The zygote's IPC namespace is shared by every candidate it forks, so SysV objects made
    # with a fixed key would carry answers from one candidate to the next: each gets its own,
    # destroyed with its last process. The zygote proved the kernel allows it, so a refusal
    # here is an infrastructure fault (no signal), not a reason to run less isolated.
    if ipc_ns and (err := _libc_call("unshare", CLONE_NEWIPC)):
        raise _SetupError(f"IPC namespace refused: {err}")
    for target, src in ((0, fds["stdin"]), (1, fds["stdout"]), (2, fds["stderr"])):
        os.dup2(src, target)
    keep = sorted({0, 1, 2, fds["setup"], *fds.get("channel", ())})
    lo = 0
    for fd in keep:
        if lo < fd:  # closerange(n, n) closes everything on 3.11 (close_range(n, -1))
            os.closerange(lo, fd)
        lo = fd + 1
    os.closerange(lo, 65536)
    limits = job["limits"]
    cpu = int(limits["cpu_s"])
    wanted = {
        resource.RLIMIT_AS: limits["memory_bytes"],
        resource.RLIMIT_CPU: cpu,
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
    os.chdir(tmpdir)
    if err := _libc_call("prctl", PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0):
        raise _SetupError(f"no_new_privs refused: {err}")
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    os.environ.clear()
    os.write(fds["setup"], b"R")
    os.close(fds["setup"])  # from here on the candidate can no longer claim a setup failure
    sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.argv = ["candidate"]


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


def _describe(exc: BaseException) -> list:
    try:
        text = str(exc)[:300]
    except BaseException:
        text = "<unprintable>"
    return [type(exc).__name__, text]


def _serve_calls(code: str, req_fd: int, resp_fd: int, max_bytes: int) -> None:
    """call mode: load the code once, then answer each request with plain data."""
    ns: dict = {"__name__": "candidate", "__builtins__": builtins}
    load_error = None
    try:
        exec(compile(code, "<candidate>", "exec"), ns)
    except BaseException as e:  # SystemExit included: leaving early is a failure
        load_error = ["load:" + _describe(e)[0], _describe(e)[1]]
    while True:
        req = _read_msg(req_fd, max_bytes)
        if req is None:
            return
        reply = {"id": req.get("id"), "nonce": req.get("nonce")}
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
            reply["error"] = ["UnsupportedReturn", str(e)]
        except BaseException as e:
            reply["error"] = _describe(e)
        try:
            data = wire.pack(reply)
        except BaseException as e:  # e.g. a str with lone surrogates
            data = wire.pack({**reply, "value": None, "error": ["UnsupportedReturn", str(e)]})
        _write_all(resp_fd, data)


class _LoadFailed(Exception):
    pass


# ----------------------------------------------------------------------------- judge


class CandidateError(Exception):
    """The candidate raised; args are its exception's type name and message."""


class CandidateDied(Exception):
    """The candidate process stopped answering (exited, killed, or broke the channel)."""


class UnsupportedTest(Exception):
    """The test passed the candidate something that is not plain data."""


class _Proxy:
    """Stands for a function of the candidate: calls go to the sandbox, plain data returns."""

    def __init__(self, channel: _Channel, name: str) -> None:
        self._channel, self.__name__ = channel, name

    def __call__(self, *args, **kwargs):
        return self._channel.call(self.__name__, args, kwargs)

    def __repr__(self) -> str:
        return f"<candidate {self.__name__}>"


class _Channel:
    def __init__(self, req_fd: int, resp_fd: int, max_bytes: int) -> None:
        self.req_fd, self.resp_fd, self.max_bytes = req_fd, resp_fd, max_bytes
        self.nonce = os.urandom(16).hex()
        self.next_id, self.dead = 0, False
        self.errors = {
            name: obj
            for name, obj in vars(builtins).items()
            if isinstance(obj, type) and issubclass(obj, Exception)
        }

    def call(self, name: str, args: tuple, kwargs: dict):
        if self.dead:
            raise CandidateDied("the candidate is no longer running")
        try:
            request = {"args": wire.encode(list(args)), "kwargs": wire.encode(dict(kwargs))}
        except wire.WireError as e:
            raise UnsupportedTest(str(e)) from None
        self.next_id += 1
        request.update(id=self.next_id, nonce=self.nonce, name=name)
        try:
            _write_all(self.req_fd, wire.pack(request))
            reply = _read_msg(self.resp_fd, self.max_bytes)
        except (OSError, wire.WireError) as e:
            self.dead = True
            raise CandidateDied(f"channel broken: {e}") from None
        if reply is None:
            self.dead = True
            raise CandidateDied("the candidate exited while answering")
        if reply.get("id") != self.next_id or reply.get("nonce") != self.nonce:
            self.dead = True
            raise CandidateDied("reply does not match the request")
        if "error" in reply:
            err = reply["error"]
            if type(err) is not list or len(err) != 2 or not all(type(x) is str for x in err):
                raise CandidateDied("malformed error reply")
            # a builtin class of our own making, so test code that expects e.g. ValueError
            # works, and the candidate's exception object never reaches us
            cls = self.errors.get(err[0])
            raise cls(err[1]) if cls else CandidateError(err[0], err[1])
        try:
            return wire.decode(reply.get("value"))
        except wire.WireError as e:
            raise CandidateError("UnsupportedReturn", str(e)) from None


class _TestGlobals(dict):
    """Globals for dataset test code: builtins first, any other free name is the candidate's.

    MBPP tests call helpers the solution defines (``poly`` in HumanEval/32 too); each such
    name becomes a proxy, so it still only ever returns plain data.
    """

    def __init__(self, channel: _Channel) -> None:
        super().__init__(__builtins__=builtins, __name__="__judge__")
        self._channel = channel

    def __missing__(self, name: str):
        if name in vars(builtins):
            return vars(builtins)[name]
        if name in sys.stdlib_module_names:
            # MBPP tests use modules the solution imported (``sys.getsizeof``): the original
            # harness ran both in one namespace. Ours imports the trusted copy instead.
            return __import__(name)
        return _Proxy(self._channel, name)


def _run_one(test: dict, channel: _Channel) -> dict:
    if test["kind"] == "call":
        value = channel.call(test["entry_point"], tuple(test["args"]), test["kwargs"])
        return {"value": wire.encode(value)}  # compared in the parent
    ns = _TestGlobals(channel)
    proxy = _Proxy(channel, test["entry_point"])
    ns["candidate"] = ns[test["entry_point"]] = proxy
    if test.get("setup"):
        exec(compile(test["setup"], "<test setup>", "exec"), ns)
    exec(compile(test["assert_code"], "<test>", "exec"), ns)
    check = dict.get(ns, "check")
    if callable(check) and not isinstance(check, _Proxy):
        check(proxy)  # HumanEval's convention: the test defines check(candidate)
    return {"passed": True}


def _judge(job: dict, req_fd: int, resp_fd: int, out_fd: int) -> None:
    channel = _Channel(req_fd, resp_fd, job["limits"]["value_bytes"])
    for i, spec in enumerate(job["tests"]):
        test = dict(spec)
        if test["kind"] == "call":
            test["args"], test["kwargs"] = wire.decode(spec["args"]), wire.decode(spec["kwargs"])
        start = time.perf_counter()
        try:
            result = _run_one(test, channel)
        except AssertionError as e:
            result = {"passed": False, "error": "AssertionError", "message": str(e)[:300]}
        except CandidateDied as e:
            result = {"passed": False, "error": "CandidateDied", "message": str(e)}
        except UnsupportedTest as e:
            result = {"passed": False, "error": "UnsupportedTest", "message": str(e)}
        except CandidateError as e:
            result = {"passed": False, "error": e.args[0], "message": e.args[1]}
        except BaseException as e:
            name, text = _describe(e)
            result = {"passed": False, "error": name, "message": text}
        result.update(index=i, time=time.perf_counter() - start)
        _write_all(out_fd, wire.pack(result))


# ----------------------------------------------------------------------------- zygote jobs


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


def _sweep(uid: int | None, pgids: list[int]) -> None:
    """Kill the job's process groups and every process of the candidate uid, and reap them.

    A fork bomb can race one pass of ``kill(-1)`` and daemons leave the process group, so
    this repeats until the uid owns nothing and no child of ours is left unreaped.
    """

    def kill_all_of_uid() -> int:
        os.setresuid(uid, uid, uid)
        try:
            os.kill(-1, signal.SIGKILL)  # as uid: every process we may signal, i.e. the uid's
        except ProcessLookupError:
            return 0
        return 1

    for pgid in pgids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
    give_up = time.monotonic() + 10.0  # sandbox.GRACE_S must stay above this
    while time.monotonic() < give_up:
        found = 0
        if uid is not None:
            _, status = os.waitpid(_fork(kill_all_of_uid), 0)
            found = os.waitstatus_to_exitcode(status)
        children = 0
        while True:  # we are the subreaper (or the namespace's init): collect every orphan
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                children = 1  # alive or still dying after SIGKILL: look again shortly
                break
        if not found and not children:
            return
        time.sleep(0.002)


def _remove_leftovers(uid: int | None) -> None:
    """Delete what the candidate left in the shared scratch dirs (/tmp, /dev/shm...): the
    next candidate must neither read it nor find the space used up."""
    if uid is None:
        return
    for d in WRITABLE_DIRS:
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in names:  # sticky dirs: the uid can only have made top-level entries
            path = os.path.join(d, name)
            try:
                if os.lstat(path).st_uid != uid:
                    continue
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)
            except OSError:
                pass


def _run_job(job: dict, uid: int | None, root: str, ipc_ns: bool) -> dict:
    limits = job["limits"]
    tmpdir = tempfile.mkdtemp(prefix="cand-", dir=root)
    if uid is not None:
        os.chown(tmpdir, uid, uid)
    os.chmod(tmpdir, 0o700)
    call_mode = job["mode"] == "call"
    setup_r, setup_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    fds = {"setup": setup_w, "stdout": out_w, "stderr": err_w}
    if call_mode:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        res_r, res_w = os.pipe()
        fds["stdin"] = os.open(os.devnull, os.O_RDONLY)
        fds["channel"] = (req_r, resp_w)
    else:
        res_r = -1
        path = os.path.join(tmpdir, ".stdin")
        with open(path, "w", encoding="utf-8") as f:
            f.write(job["stdin"])
        fds["stdin"] = os.open(path, os.O_RDONLY)
        os.unlink(path)

    def candidate() -> int:
        try:
            _become_candidate(job, tmpdir, uid, fds, ipc_ns)
        except BaseException as e:
            try:
                os.write(fds["setup"], b"E" + repr(e).encode()[:500])
            finally:
                os._exit(71)
        if call_mode:
            _serve_calls(job["code"], req_r, resp_w, limits["value_bytes"])
            return 0
        return _run_script(job["code"])

    start = time.monotonic()
    deadline = start + job["timeout"]
    cand = _fork(candidate)
    pgids = [cand]
    judge = None
    if call_mode:

        def judge_main() -> int:
            os.setsid()
            for fd in (req_r, resp_w, res_r, setup_r, setup_w, out_r, out_w, err_r, err_w):
                os.close(fd)
            os.close(fds["stdin"])
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1):  # the parent's protocol pipes are the zygote's alone
                os.dup2(null, fd)
            lim = limits["judge_memory_bytes"]
            resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
            _judge(job, req_w, resp_r, res_w)
            return 0

        judge = _fork(judge_main)
        pgids.append(judge)
        for fd in (req_r, req_w, resp_r, resp_w, res_w):
            os.close(fd)
    for fd in (setup_w, out_w, err_w, fds["stdin"]):
        os.close(fd)

    result: dict = {"status": "ok", "tests": []}
    # setup handshake: only a trusted pre-exec write can claim an infrastructure failure
    ready = b""
    while True:
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
        _sweep(uid, pgids)
        for fd in (out_r, err_r) + ((res_r,) if call_mode else ()):
            os.close(fd)
        shutil.rmtree(tmpdir, ignore_errors=True)
        why = ready[1:].decode(errors="replace") if ready[:1] == b"E" else "no handshake"
        return {"status": "no_signal", "reason": f"sandbox setup failed: {why}", "tests": []}

    keep = limits["excerpt_bytes"]
    out, err = (
        _Capture(out_r, limits["stdout_bytes"] if not call_mode else keep),
        _Capture(err_r, keep),
    )
    pidfd = os.pidfd_open(cand)
    watched = {out_r: out, err_r: err}
    res_buf = bytearray()
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
        if left <= 0:
            result.update(status="timeout", reason=f"wall time over {job['timeout']:g}s")
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
        if out.total + err.total > limits["output_bytes"]:
            result.update(status="output_limit", reason="captured output over the cap")
            break
    exit_status = None
    if not call_mode and cand_done:
        _, status = os.waitpid(cand, 0)
        exit_status = os.waitstatus_to_exitcode(status)
    _sweep(uid, pgids)
    for fd in (out_r, err_r, pidfd) + ((res_r,) if call_mode else ()):
        os.close(fd)
    shutil.rmtree(tmpdir, ignore_errors=True)
    _remove_leftovers(uid)
    if call_mode:
        view = bytes(res_buf)
        while len(view) >= 4:
            size = wire.header_length(view[:4])
            if len(view) < 4 + size:
                break
            result["tests"].append(wire.unpack(view[4 : 4 + size]))
            view = view[4 + size :]
    result.update(
        exit_status=exit_status,
        stdout=out.text(),
        stdout_total=out.total,
        stderr=err.text()[:keep],
        stderr_total=err.total,
        wall=time.monotonic() - start,
    )
    if not call_mode:
        result["stdout"] = out.text()  # the whole capture: it is what gets compared
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
        if isolation["mount_namespace"] == "yes":
            _libc_call("mount", b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    else:
        _libc_call("prctl", PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    for name in WARM_MODULES:
        with contextlib.suppress(ImportError):
            __import__(name)
    root = tempfile.mkdtemp(prefix="rlvr-sandbox-")
    os.chmod(root, 0o711)  # candidates may enter their own dir, never list the others
    _write_all(1, wire.pack({"hello": isolation}))
    ipc_ns = isolation["ipc_namespace"] == "yes"
    while True:
        try:
            job = _read_msg(0, 1 << 30)
        except wire.WireError:
            job = None
        if job is None:
            break
        try:
            reply = _run_job(job, config.get("uid"), root, ipc_ns)
        except BaseException as e:
            reply = {"status": "no_signal", "reason": f"sandbox error: {_describe(e)}"}
        _write_all(1, wire.pack(reply))
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
