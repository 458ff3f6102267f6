"""Attacks on the code sandbox: each must score 0, end within its deadline, leave the host as
it was, and leave the pool usable.

Every attack program defines ``add`` (the task: ``add(1, 2) == 3``) but tries to win without
computing it, or to harm the host. Where an attack could "succeed" silently (reading a
secret, writing a file), the program returns the stolen thing and the test expects exactly
that, so a successful attack would score 1 and fail the test.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import socket
import time
from pathlib import Path

import psutil
import pytest

from verifiers.code import Limits, SandboxPool, run_tests
from verifiers.code.sandbox import GRACE_S

TIMEOUT = 2.0
DEADLINE = TIMEOUT + GRACE_S + 10.0  # generous: a functional bound, not a speed target
SECRET = "rlvr-fake-secret-7f3a9c"
LIMITS = Limits(memory_bytes=512 << 20, processes=16)
ADD_TESTS = [
    {"entry_point": "add", "args": [1, 2], "expected": 3},
    {
        "assert_code": "def check(candidate):\n    assert candidate(2, 2) == 4\n",
        "entry_point": "add",
    },
]


@pytest.fixture(scope="module")
def pool():
    os.environ["RLVR_FAKE_SECRET"] = SECRET  # the parent holds a secret the sandbox must not see
    p = SandboxPool(workers=2)
    yield p
    p.close()
    del os.environ["RLVR_FAKE_SECRET"]


@pytest.fixture
def host(tmp_path):
    """A world-writable folder with a canary in the real home dir (visible to the sandbox,
    unlike /tmp which it sees as a private tmpfs); checks afterwards the host is intact."""
    home = Path.home() / f".rlvr-sandbox-canary-{os.getpid()}"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    canary = home / "canary.txt"
    canary.write_text("alive")
    os.chmod(home, 0o777)  # so only the sandbox, not file permissions, protects it
    os.chmod(canary, 0o666)
    before = set(os.listdir(home.parent))
    try:
        yield home
        assert canary.read_text() == "alive", "the canary was modified"
        assert set(os.listdir(home.parent)) == before, "a file appeared in the home dir"
        assert sorted(os.listdir(home)) == ["canary.txt"], "a file appeared in the canary dir"
    finally:
        shutil.rmtree(home, ignore_errors=True)
    for name in ("pwned", "rlvr_attack_marker"):
        for d in ("/tmp", "/var/tmp", "/dev/shm", os.getcwd(), str(Path.home())):
            assert not os.path.exists(os.path.join(d, name)), f"{d}/{name} was written"


def _stray(pool: SandboxPool) -> list[str]:
    """Processes still running as a candidate uid, or left under a zygote besides its init."""
    uids = {box.uid for box in pool._all}
    found = []
    for proc in psutil.process_iter(["pid", "uids", "name"]):
        try:
            if proc.info["uids"] and proc.info["uids"].real in uids:
                found.append(f"{proc.info['pid']} uid={proc.info['uids'].real}")
        except psutil.Error:
            continue
    for box in pool._all:
        if box.proc is None:
            continue
        try:
            kids = psutil.Process(box.proc.pid).children(recursive=True)
        except psutil.Error:
            continue
        if len(kids) > 3:  # the namespace's init (the supervisor), its zygote, the zygote's
            # pinner (it holds the stdlib copy in memory), nothing else
            found.append(f"zygote {box.proc.pid} has {len(kids)} descendants")
    return found


def attack(pool, code: str, tests=ADD_TESTS, **kw):
    start = time.monotonic()
    kw.setdefault("limits", LIMITS)
    kw.setdefault("timeout", TIMEOUT)
    result = run_tests(code, tests, pool=pool, **kw)
    elapsed = time.monotonic() - start
    assert result.status == "ok", f"an attack must score 0, not no-signal: {result.reason}"
    assert result.reward == 0.0, [(t.error, t.message, t.got) for t in result.tests]
    assert elapsed < DEADLINE, f"took {elapsed:.1f}s"
    assert _stray(pool) == []
    # the pool still works after the attack
    ok = run_tests("def add(a, b):\n    return a + b", ADD_TESTS, timeout=30.0, pool=pool)
    assert ok.reward == 1.0, [(t.error, t.message) for t in ok.tests]
    return result


STEAL = [{"entry_point": "add", "args": [1, 2], "expected": "pwned"}]


def test_fork_bomb(pool, host):
    code = """
import os
def add(a, b):
    return a + b
while True:
    try:
        os.fork()
    except OSError:
        pass
"""
    attack(pool, code)


def test_fork_bomb_of_daemons_escaping_the_group(pool, host):
    code = """
import os, time
def add(a, b):
    return 0
for _ in range(8):
    try:
        if os.fork() == 0:
            os.setsid()  # leave the process group the sandbox kills
            while True:
                time.sleep(1)
    except OSError:
        pass
"""
    attack(pool, code)


@pytest.mark.parametrize(
    "bomb",
    [
        "x = bytearray(8 << 30)",
        "x = [0] * (10 ** 10)",
        "x = []\nwhile True:\n    x.append(bytearray(1 << 24))",
    ],
)
def test_memory_bomb(pool, host, bomb):
    attack(pool, "def add(a, b):\n    return a + b\n" + bomb)


def test_infinite_loop_python(pool, host):
    attack(pool, "def add(a, b):\n    while True:\n        pass\n")


def test_infinite_loop_c_level(pool, host):
    # sum() over an endless iterator never returns to the eval loop: only a kill stops it
    attack(pool, "import itertools\ndef add(a, b):\n    return sum(itertools.repeat(1))\n")


def test_catastrophic_regex(pool, host):
    attack(pool, "import re\ndef add(a, b):\n    return re.match(r'(a+)+$', 'a' * 60 + 'b')\n")


def test_disk_fill(pool, host):
    code = """
import os
def add(a, b):
    return 0
n = 0
try:
    while True:
        with open(f"fill{n}", "wb") as f:
            f.write(b"0" * (8 << 20))
        n += 1
except OSError:
    pass
"""
    attack(pool, code)
    assert os.path.exists(host / "canary.txt")


def test_single_huge_file(pool, host):
    code = "def add(a, b):\n    return a + b\nopen('big', 'wb').write(b'0' * (64 << 20))\n"
    attack(pool, code)  # RLIMIT_FSIZE: SIGXFSZ kills the writer


def test_write_outside_tmpdir(pool, host):
    targets = [
        str(host / "pwned"),
        str(host.parent / "pwned"),
        "/tmp/pwned",
        "/dev/shm/pwned",
        os.path.join(os.getcwd(), "pwned"),
        str(Path.home() / "pwned"),
        "../pwned",
        "/root/pwned",
    ]
    code = f"""
def add(a, b):
    wrote = []
    for path in {targets!r}:
        try:
            with open(path, "w") as f:
                f.write("x")
            wrote.append(path)
        except OSError:
            pass
    # a private /tmp is fine; the check below is that none of it reached the host
    return "pwned" if any(not p.startswith(("/tmp", "/dev/shm", "..")) for p in wrote) else ""
"""
    attack(pool, code, tests=STEAL)


def test_delete_home_files(pool, host):
    code = f"""
import os, shutil
def add(a, b):
    done = []
    for op in (lambda: os.remove({str(host / "canary.txt")!r}),
               lambda: open({str(host / "canary.txt")!r}, "w").close(),
               lambda: shutil.rmtree({str(host)!r}),
               lambda: os.rename({str(host)!r}, {str(host)!r} + ".moved")):
        try:
            op()
            done.append(1)
        except OSError:
            pass
    return "pwned" if done else ""
"""
    attack(pool, code, tests=STEAL)


def test_read_environment_secrets(pool, host):
    code = """
import os, glob
def add(a, b):
    found = str(dict(os.environ))
    for path in ["/proc/self/environ", "/proc/1/environ"] + glob.glob("/proc/*/environ"):
        try:
            with open(path, "rb") as f:
                found += f.read().decode(errors="replace")
        except OSError:
            pass
    i = found.find("rlvr-fake-secret")
    return found[i:i + 23] if i >= 0 else ""
"""
    attack(pool, code, tests=[{"entry_point": "add", "args": [1, 2], "expected": SECRET}])


def test_kill_the_parent(pool, host):
    me = os.getpid()
    code = f"""
import os, signal
def add(a, b):
    hits = 0
    for pid in (os.getppid(), 1, {me}, {pool._all[0].proc.pid if pool._all[0].proc else 1}):
        try:
            os.kill(pid, signal.SIGKILL)
            hits += 1
        except OSError:
            pass
    try:
        os.kill(-1, signal.SIGKILL)  # everything we may signal: only our own processes
    except OSError:
        pass
    return "pwned" if hits else ""
"""
    attack(pool, code, tests=STEAL)
    assert psutil.pid_exists(me)


def test_open_socket(pool, host):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.setblocking(False)
    port = server.getsockname()[1]
    code = f"""
import socket
def add(a, b):
    for addr in [("127.0.0.1", {port}), ("1.1.1.1", 53), ("8.8.8.8", 443)]:
        try:
            socket.create_connection(addr, timeout=0.5).close()
            return "pwned"
        except OSError:
            pass
    return ""
"""
    try:
        attack(pool, code, tests=STEAL)
        with pytest.raises(BlockingIOError):
            server.accept()  # nothing reached the host's loopback
    finally:
        server.close()


@pytest.mark.parametrize(
    "code",
    [
        "import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b",
        "import sys\ndef add(a, b):\n    sys.exit(0)",
        "import os\nos._exit(0)\ndef add(a, b):\n    return a + b",
        "import os\ndef add(a, b):\n    os._exit(0)",
        "def add(a, b):\n    raise SystemExit(0)",
        "def add(a, b):\n    raise KeyboardInterrupt",
    ],
    ids=[
        "sys_exit_module",
        "sys_exit_call",
        "os_exit_module",
        "os_exit_call",
        "SystemExit",
        "KbInt",
    ],
)
def test_early_exit(pool, host, code):
    attack(pool, code)


def test_atexit(pool, host):
    code = """
import atexit, os, sys
atexit.register(lambda: print("ALL TESTS PASSED"))
atexit.register(lambda: os._exit(0))
def add(a, b):
    sys.exit(0)
"""
    attack(pool, code)


def test_always_equal_object(pool, host):
    code = """
class Yes:
    def __eq__(self, other):
        return True
    __ne__ = lambda self, other: False
    __hash__ = lambda self: 0
class SneakyInt(int):
    def __eq__(self, other):
        return True
def add(a, b):
    return Yes() if a == 1 else SneakyInt(0)
"""
    result = attack(pool, code)
    # the call test compares plain data only; the assert test gets a stand-in with the
    # object's truth that equals nothing (issue #32), so ``== 4`` fails
    assert [t.error for t in result.tests] == ["UnsupportedReturn", "AssertionError"]


@pytest.mark.parametrize(
    "value, expected",
    [("1 << 100_000", 3), ("{1 << 100_000, 5}", {3, 5}), ("[(1 << 100_000,)]", [(3,)])],
    ids=["int", "set_member", "nested"],
)
def test_an_int_too_long_to_print_is_wrong_not_a_crash(pool, host, value, expected):
    """Python refuses to write an int of more than 4300 decimal digits: the trusted side
    must never need to (it used to raise out of ``run_tests``, in the parent)."""
    code = f"def add(a, b):\n    return {value}\n"
    result = attack(
        pool, code, tests=[{"entry_point": "add", "args": [1, 2], "expected": expected}]
    )
    assert result.tests[0].error == "wrong" and result.tests[0].got


@pytest.mark.parametrize("name", ["StopIteration", "StopAsyncIteration"])
def test_raising_stop_iteration_does_not_end_the_tests_loop(pool, host, name):
    """A StopIteration raised in a function that ``map`` calls ends the map as if exhausted:
    ``all(map(candidate, xs))`` is True and ``for y in map(candidate, xs)`` checks nothing.
    Re-raised as itself in the judge, the candidate's exception would do the same there."""
    tests = [
        {"assert_code": "assert all(map(add, [1, 2], [2, 3]))\n", "entry_point": "add"},
        {"assert_code": "for y in map(add, [1], [2]):\n    assert y == 3\n", "entry_point": "add"},
        {"assert_code": "assert list(map(add, [1], [2])) != [4]\n", "entry_point": "add"},
    ]
    code = f"def add(a, b):\n    raise {name}\n"
    result = attack(pool, code, tests=tests)
    assert {t.error for t in result.tests} == {name}


def test_patched_builtins_and_harness(pool, host):
    code = """
import builtins, sys
builtins.AssertionError = type("Never", (Exception,), {})
builtins.isinstance = lambda *a: True
builtins.len = lambda x: 0
for mod in list(sys.modules.values()):
    if hasattr(mod, "encode") and hasattr(mod, "WireError"):
        mod.encode = lambda v, _depth=0: ["b", True]  # claim every answer is True
def add(a, b):
    return 0
"""
    attack(pool, code)


def test_stack_walking_into_the_harness(pool, host):
    # the expected value lives only in the parent: nothing in the sandbox can reveal it
    code = """
import gc, re, sys
def add(a, b):
    seen = []
    frame = sys._getframe()
    while frame is not None:
        seen.append(repr(frame.f_locals))
        frame = frame.f_back
    for obj in gc.get_objects():
        if isinstance(obj, dict) and "expected" in obj:
            return obj["expected"]
        if isinstance(obj, dict) and ("tests" in obj or "passed" in obj):
            seen.append(repr(obj))
    found = re.findall(r"expected.{0,8}?([0-9]{6,})", " ".join(seen))
    return int(found[0]) if found else -1
"""
    attack(pool, code, tests=[{"entry_point": "add", "args": [1, 2], "expected": 982451653}])


def test_forging_the_result_channels(pool, host):
    # write fake "passed" results and a fake setup failure on every descriptor it can find
    code = """
import json, os, struct
def frame(obj):
    body = json.dumps(obj).encode()
    return struct.pack(">I", len(body)) + body
fakes = [frame({"index": 0, "passed": True, "time": 0}), b"E infrastructure failure",
         frame({"status": "no_signal", "reason": "fake"}), b"R"]
for fd in range(0, 256):
    for fake in fakes:
        try:
            os.write(fd, fake)
        except OSError:
            pass
def add(a, b):
    print("PASSED " * 10)
    return None
"""
    attack(pool, code)


def test_claim_no_signal_by_crashing_in_setup(pool, host):
    # dying before any test is the code's fault: reward 0, never "no signal"
    attack(pool, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")


def test_stdout_flood(pool, host):
    attack(pool, "def add(a, b):\n    return 0\nwhile True:\n    print('x' * 65536)\n")


def test_stdout_flood_in_stdin_mode(pool, host):
    tests = [{"stdin": "1 2\n", "expected_stdout": "3\n"}]
    result = attack(pool, "print(3)\nwhile True:\n    print('3' * 65536)\n", tests=tests)
    assert result.tests[0].error in ("output_limit", "timeout")


def test_stdin_program_forging_output_then_crashing(pool, host):
    tests = [
        {"stdin": "1 2\n", "expected_stdout": "3\n"},
        {"stdin": "2 2\n", "expected_stdout": "4\n"},
    ]
    attack(pool, "print(3)\nimport os\nos.kill(os.getpid(), 9)\n", tests=tests[1:])


def test_leftovers_do_not_reach_the_next_candidate(host):
    single = SandboxPool(workers=1)  # the same zygote and uid serve both candidates
    try:
        writer = """
import os
for d in ("/tmp", "/dev/shm", "/var/tmp"):
    try:
        with open(os.path.join(d, "rlvr_attack_marker"), "w") as f:
            f.write("answer=3")
    except OSError:
        pass
def add(a, b):
    return 0
"""
        attack(single, writer)
        reader = """
import os
def add(a, b):
    found = [d for d in ("/tmp", "/dev/shm", "/var/tmp")
             if os.path.exists(os.path.join(d, "rlvr_attack_marker"))]
    return "pwned" if found else ""
"""
        attack(single, reader, tests=STEAL)
    finally:
        single.close()


IPC_KEY = 0x524C5652  # fixed, so a later candidate knows where to look
IPC_WRITER = f"""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
class Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 16)]
made = []
shmid = libc.shmget({IPC_KEY}, 4096, 0o1666)  # IPC_CREAT, readable by every uid
if shmid >= 0:
    addr = libc.shmat(shmid, None, 0)
    if addr not in (None, ctypes.c_void_p(-1).value):
        ctypes.memmove(addr, b"answer=3", 8)
        made.append("shm")
q = libc.msgget({IPC_KEY + 1}, 0o1666)
if q >= 0 and libc.msgsnd(q, ctypes.byref(Msg(1, b"answer=3")), 16, 0o4000) == 0:
    made.append("msg")
if libc.semget({IPC_KEY + 2}, 1, 0o1666) >= 0:
    made.append("sem")
def add(a, b):
    return " ".join(made)
"""
IPC_READER = f"""
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def add(a, b):
    found = [libc.shmget({IPC_KEY}, 0, 0), libc.msgget({IPC_KEY + 1}, 0),
             libc.semget({IPC_KEY + 2}, 0, 0)]
    return "pwned" if any(i >= 0 for i in found) else ""
"""


def _host_ipc_keys() -> set[int]:
    keys = set()
    for kind in ("shm", "msg", "sem"):
        with open(f"/proc/sysvipc/{kind}") as f:
            keys |= {int(line.split()[0]) for line in list(f)[1:]}
    return keys


def _remove_host_ipc() -> None:
    """A sandbox without the fix leaks the objects into the host: leave it as it was."""
    libc = ctypes.CDLL(None)
    ipc_rmid = 0
    for get, ctl, key in (
        (libc.shmget, libc.shmctl, IPC_KEY),
        (libc.msgget, libc.msgctl, IPC_KEY + 1),
    ):
        if (ident := get(key, 0, 0)) >= 0:
            ctl(ident, ipc_rmid, None)
    if (ident := libc.semget(IPC_KEY + 2, 0, 0)) >= 0:
        libc.semctl(ident, 0, ipc_rmid)


IPC_HOARD = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
def add(a, b):
    shm = 0
    for _ in range(16):  # 16 x 64 MiB, each touched then detached: RLIMIT_AS never sees it
        sid = libc.shmget(0, 64 << 20, 0o1600)
        addr = libc.shmat(sid, None, 0) if sid >= 0 else None
        if addr in (None, ctypes.c_void_p(-1).value):
            break
        ctypes.memset(addr, 1, 64 << 20)
        libc.shmdt(ctypes.c_void_p(addr))
        shm += 64 << 20
    sems = sum(32000 for _ in range(4) if libc.semget(0, 32000, 0o1600) >= 0)
    queues = 0
    while queues < 1000 and libc.msgget(0, 0o1600) >= 0:
        queues += 1
    return [shm > LIMIT, sems > 4096, queues > 64]
"""


def test_sysv_ipc_memory_is_capped(pool, host):
    """SysV shared memory, semaphores and message queues are kernel memory that RLIMIT_AS
    does not count; a fresh IPC namespace starts with limits in the terabytes."""
    code = f"LIMIT = {LIMITS.memory_bytes}\n" + IPC_HOARD
    r = attack(pool, code, tests=[{"entry_point": "add", "args": [1, 2], "expected": "pwned"}])
    assert r.tests[0].got == repr([False, False, False]), r.tests[0].got


MEMFD_HOARD = """
import os
def add(a, b):
    held, fds = 0, []
    try:
        while held <= LIMIT:  # written, never mapped: RLIMIT_AS never sees it
            fd = os.memfd_create("hoard")
            fds.append(fd)
            for _ in range(4):
                os.write(fd, bytes(4 << 20))
                held += 4 << 20
    except OSError:
        pass
    return held > LIMIT
"""


def test_memfd_memory_is_not_outside_the_limit(pool, host):
    """Each memfd holds up to file_bytes of memory that RLIMIT_AS does not count, one per
    open file: 64 x 16 MiB per process by default, invisible to the OOM killer's choice."""
    limits = Limits(memory_bytes=256 << 20, processes=16)
    code = f"LIMIT = {limits.memory_bytes}\n" + MEMFD_HOARD
    r = attack(
        pool,
        code,
        tests=[{"entry_point": "add", "args": [1, 2], "expected": "pwned"}],
        limits=limits,
    )
    assert r.tests[0].got == "False", r.tests[0].got


def _have_cap(bit: int) -> bool:
    with open("/proc/self/status") as f:
        caps = next(line for line in f if line.startswith("CapEff:"))
    return bool(int(caps.split()[1], 16) >> bit & 1)


def test_a_candidate_is_the_oom_killers_first_choice(pool, host):
    """What no rlimit counts (its /tmp, pipes, page tables) can still run the host out of
    memory: the OOM killer must then take a candidate, never the trainer. Where the sandbox
    holds CAP_SYS_RESOURCE (not in every container), the candidate cannot lower it either."""
    code = """
def add(a, b):
    with open("/proc/self/oom_score_adj") as f:
        seen = [f.read().strip()]
    for value in ("-1000", "0", "999"):
        try:
            with open("/proc/self/oom_score_adj", "w") as f:
                f.write(value)
        except OSError:
            pass
    with open("/proc/self/oom_score_adj") as f:
        return seen + [f.read().strip()]
"""
    r = attack(pool, code, tests=STEAL)
    start, end = eval(r.tests[0].got)  # plain data
    assert start == "1000", start
    if _have_cap(24):  # CAP_SYS_RESOURCE: root's write also sets the floor
        assert end == "1000", end


def test_sysv_ipc_does_not_reach_the_next_candidate(pool, host):
    """SysV shared memory, message queues and semaphores live in the IPC namespace, not the
    filesystem: without a fresh one per candidate they outlive it and carry its answers."""
    single = SandboxPool(workers=1)  # the same zygote and uid serve writer and reader
    try:
        wrote = attack(single, IPC_WRITER, tests=STEAL)
        assert wrote.tests[0].got == repr("shm msg sem"), "the writer could not set up the attack"
        attack(single, IPC_READER, tests=STEAL)  # the next candidate of the same zygote
        attack(pool, IPC_READER, tests=STEAL)  # candidates of other zygotes
        assert not {IPC_KEY, IPC_KEY + 1, IPC_KEY + 2} & _host_ipc_keys(), "reached the host"
    finally:
        single.close()
        _remove_host_ipc()


# Kernel keyrings belong to a uid, not to a process or a namespace: a key added to the user
# keyring (or the persistent one, kept for days) outlives the candidate and waits for the next
# candidate of the same sandbox, which runs as the same uid.
KEYS = "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nNR = {'x86_64': (248, 250), 'aarch64': (217, 219)}[__import__('platform').machine()]\n"
KEY_WRITER = (
    KEYS
    + """
def add(a, b):
    made = []
    if libc.syscall(NR[0], b"user", b"rlvr", b"answer=3", 8, ctypes.c_int(-4)) >= 0:
        made.append("user")  # KEY_SPEC_USER_KEYRING
    ring = libc.syscall(NR[1], 22, -1, ctypes.c_int(-4))  # KEYCTL_GET_PERSISTENT
    if ring >= 0 and libc.syscall(NR[0], b"user", b"rlvr", b"answer=3", 8, ring) >= 0:
        made.append("persistent")
    return " ".join(made)
"""
)
KEY_READER = (
    KEYS
    + """
def add(a, b):
    rings = [-4, -5, libc.syscall(NR[1], 22, -1, ctypes.c_int(-4))]
    found = [r for r in rings if libc.syscall(NR[1], 10, ctypes.c_int(r), b"user", b"rlvr", 0) >= 0]
    return "pwned" if found else ""
"""
)


def _clear_keyrings(uid: int) -> None:
    """Remove what a sandbox without the fix left in the kernel for ``uid``."""
    pid = os.fork()
    if pid == 0:
        try:
            libc = ctypes.CDLL(None)
            os.setresuid(uid, uid, uid)
            nr = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine, -1)
            for ring in (-4, -5, libc.syscall(nr, 22, -1, ctypes.c_int(-4))):
                libc.syscall(nr, 7, ctypes.c_int(ring))  # KEYCTL_CLEAR
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def test_kernel_keyrings_do_not_reach_the_next_candidate(host):
    single = SandboxPool(workers=1)
    try:
        attack(single, KEY_WRITER, tests=STEAL)
        attack(single, KEY_READER, tests=STEAL)
        assert "seccomp" in single._all[0].isolation
    finally:
        uid = single._all[0].uid
        single.close()
        _clear_keyrings(uid)


# Counters a sandbox keeps from one candidate to the next are a channel between them: the
# sender moves the counter to a value it chose, the next candidate reads it.
PID_SENDER = """
import os
def add(a, b):
    for _ in range(4096):  # fork until the last pid handed out ends in the message
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        if pid % 1024 == MESSAGE:
            return "sent"
    return "not sent"
"""
PID_RECEIVER = "import os\ndef add(a, b):\n    return os.getpid() % 1024\n"


def test_the_pid_counter_carries_nothing_to_the_next_candidate(host):
    single = SandboxPool(workers=1)  # the same PID namespace serves sender and receiver
    try:
        offsets = []
        for message in (100, 500, 900):
            sent = run_tests(
                f"MESSAGE = {message}\n" + PID_SENDER, STEAL, timeout=30.0, pool=single
            )
            assert sent.tests[0].got == repr("sent"), sent.tests[0].got
            got = attack(single, PID_RECEIVER, tests=STEAL).tests[0].got
            offsets.append((int(got) - message) % 1024)
        # without the fix each receiver reads the message plus the same few pids in between
        assert not (len(set(offsets)) == 1 and offsets[0] < 64), offsets
    finally:
        single.close()


# Pipes and sockets take their inode numbers from a per-CPU counter of the kernel: a sender
# pinned to CPU 0 moves it to a value it chose, a receiver pinned there reads it back.
INO_SENDER = """
import os
def add(a, b):
    os.sched_setaffinity(0, {0})
    r, w = os.pipe()
    ino = os.fstat(r).st_ino
    os.close(r)
    os.close(w)
    for _ in range((MESSAGE - ino - 1) % 1024):
        r, w = os.pipe()
        os.close(r)
        os.close(w)
    return "sent"
"""
INO_RECEIVER = """
import os
def add(a, b):
    os.sched_setaffinity(0, {0})
    r, w = os.pipe()
    return os.fstat(r).st_ino % 1024
"""


def test_the_inode_counter_carries_nothing_to_the_next_candidate(host):
    single = SandboxPool(workers=1)
    try:
        offsets = []
        for message in (100, 500, 900, 300):
            sent = run_tests(
                f"MESSAGE = {message}\n" + INO_SENDER, STEAL, timeout=30.0, pool=single
            )
            assert sent.tests[0].got == repr("sent"), sent.tests[0]
            got = attack(single, INO_RECEIVER, tests=STEAL).tests[0].got
            offsets.append((int(got) - message) % 1024)
        # open, each receiver read the message plus the few inodes used in between (29-53)
        spread = max((o - offsets[0] + 512) % 1024 - 512 for o in offsets) - min(
            (o - offsets[0] + 512) % 1024 - 512 for o in offsets
        )
        assert spread >= 64, offsets
    finally:
        single.close()


NET_SENDER = """
import socket
def add(a, b):
    with open("/proc/self/net/snmp") as f:
        head, values = [line.split() for line in f if line.startswith("Ip:")]
    now = int(values[head.index("OutNoRoutes")])
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for _ in range((MESSAGE - now) % 1024):  # no route: each send bumps OutNoRoutes
        try:
            s.sendto(b"x", ("10.1.2.3", 9))
        except OSError:
            pass
    return "sent"
"""
NET_RECEIVER = """
def add(a, b):
    with open("/proc/self/net/snmp") as f:
        head, values = [line.split() for line in f if line.startswith("Ip:")]
    return int(values[head.index("OutNoRoutes")]) % 1024
"""


def test_network_counters_carry_nothing_to_the_next_candidate(host):
    single = SandboxPool(workers=1)  # the same sandbox serves sender and receiver
    try:
        for message in (100, 500):
            sent = run_tests(
                f"MESSAGE = {message}\n" + NET_SENDER, STEAL, timeout=30.0, pool=single
            )
            assert sent.tests[0].got == repr("sent"), sent.tests[0].got
            got = attack(single, NET_RECEIVER, tests=STEAL).tests[0].got
            assert got == "0", got  # a fresh network namespace: nothing counted yet
    finally:
        single.close()


# ----------------------------------------------------------------------------- the invariant
# A candidate's memory never holds a test, an expected value, another candidate's code or
# output: a scanner that walks its frames, gc.get_objects() and /proc/self/mem finds only the
# marker passed to it as an argument (the control that proves the scanner works).

PREFIX = "rlvr-mark-"
SCANNER = r"""
import gc, re, sys
def _scan(prefix):
    pat = re.compile(re.escape(prefix) + "[0-9a-f]{16}")
    bpat = re.compile(re.escape(prefix.encode()) + rb"[0-9a-f]{16}")
    found = {"frames": set(), "gc": set(), "mem": set()}
    f = sys._getframe()
    while f is not None:
        for v in [*f.f_locals.values(), *f.f_globals.values()]:
            try:
                found["frames"].update(pat.findall(repr(v)[: 1 << 22]))
            except Exception:
                pass
        f = f.f_back
    for o in gc.get_objects():
        try:
            found["gc"].update(pat.findall(repr(o)[: 1 << 22]))
        except Exception:
            pass
    try:
        maps, mem = open("/proc/self/maps"), open("/proc/self/mem", "rb", buffering=0)
    except OSError as e:
        found["mem"].add(f"unreadable: {e}")  # the control below fails: it must be readable
        return {k: sorted(v) for k, v in found.items()}
    with maps, mem:
        for line in maps:
            span, perms = line.split()[:2]
            lo, hi = (int(x, 16) for x in span.split("-"))
            if "r" not in perms or hi - lo > 1 << 28:
                continue
            try:
                mem.seek(lo)
                chunk = mem.read(hi - lo)
            except (OSError, ValueError, OverflowError):
                continue
            found["mem"].update(m.decode() for m in bpat.findall(chunk))
    return {k: sorted(v) for k, v in found.items()}
def probe(arg):
    return _scan("rlvr-" + "mark-")
"""


def _marker() -> str:
    return PREFIX + os.urandom(8).hex()


def _control(arg: str) -> dict:
    """The call test the scanner passes only if its own argument is all it finds."""
    return {"entry_point": "probe", "args": [arg], "expected": dict.fromkeys(("frames", "gc", "mem"), [arg])}  # fmt: skip


@pytest.mark.parametrize("walk", ["frames", "gc", "mem"])
def test_memory_walk_finds_no_test_text_or_expected_value(pool, host, walk):
    arg, in_text, in_expected, in_setup = _marker(), _marker(), _marker(), _marker()
    tests = [
        {"assert_code": f"# {in_text}\ndef check(candidate):\n    assert '{in_text}' in str(candidate('{arg}'))\n",
         "entry_point": "probe", "setup": f"HELPER = '{in_setup}'"},
        {"entry_point": "probe", "args": [arg], "expected": {"frames": [in_expected]}},
        _control(arg),  # last: every other test has been judged by then
    ]  # fmt: skip
    r = run_tests(SCANNER, tests, timeout=30.0, limits=LIMITS, pool=pool)
    assert r.status == "ok" and not r.tests[0].passed and not r.tests[1].passed
    found = eval(r.tests[2].got)[walk] if r.tests[2].got else r.tests[2].error  # plain data
    assert found == [arg], found  # the argument (the walk works), and nothing else
    assert _stray(pool) == []


def test_previous_candidates_code_output_and_tests_do_not_reach_the_next(host):
    single = SandboxPool(workers=1)  # the same supervisor and zygote serve every candidate
    try:
        code, out, expected, arg = _marker(), _marker(), _marker(), _marker()
        before = f"# {code}\nprint('{out}')\ndef add(a, b):\n    return '{out}'\n"
        run_tests(before, [{"stdin": "", "expected_stdout": expected},
                           {"entry_point": "add", "args": [1, 2], "expected": expected}],
                  timeout=10.0, pool=single)  # fmt: skip
        r = run_tests(SCANNER, [_control(arg)], timeout=30.0, limits=LIMITS, pool=single)
        assert r.status == "ok" and r.reward == 1.0, r.tests[0].got
    finally:
        single.close()


# ----------------------------------------------------------------------------- test helpers
# HumanEval/32, /38 and /50 check the answer with a helper from the prompt. Redefining the
# helper in the completion must change nothing: the test's own copy is the one called.

HELPER_ROWS = {
    "HumanEval/32": {
        "prompt": "import math\n\n\ndef poly(xs: list, x: float):\n    return sum([coeff * math.pow(x, i) for i, coeff in enumerate(xs)])\n\n\ndef find_zero(xs: list):\n    \"\"\"A zero of poly(xs).\"\"\"\n",
        "test": "def check(candidate):\n    import math\n    for coeffs in ([1, 2], [-6, 11, -6, 1], [1, 0, 0, 1]):\n        solution = candidate(coeffs)\n        assert math.fabs(poly(coeffs, solution)) < 1e-4\n",
        "entry_point": "find_zero",
        "solution": "    lo, hi = -100.0, 100.0\n    while hi - lo > 1e-10:\n        mid = (lo + hi) / 2\n        if poly(xs, mid) * poly(xs, lo) > 0:\n            lo = mid\n        else:\n            hi = mid\n    return lo\n",
        "hack": "\ndef poly(xs, x):\n    return 0\n\ndef find_zero(xs):\n    return 12345.0\n",
    },
    "HumanEval/38": {
        "prompt": "def encode_cyclic(s: str):\n    groups = [s[(3 * i):min((3 * i + 3), len(s))] for i in range((len(s) + 2) // 3)]\n    groups = [(group[1:] + group[0]) if len(group) == 3 else group for group in groups]\n    return \"\".join(groups)\n\n\ndef decode_cyclic(s: str):\n    \"\"\"Inverse of encode_cyclic.\"\"\"\n",
        "test": "def check(candidate):\n    for s in ('abcdef', 'hello world', 'xy', 'rlvr sandbox'):\n        assert candidate(encode_cyclic(s)) == s\n",
        "entry_point": "decode_cyclic",
        "solution": "    return encode_cyclic(encode_cyclic(s))\n",
        "hack": "\ndef encode_cyclic(s):\n    return s\n\ndef decode_cyclic(s):\n    return s\n",
    },
    "HumanEval/50": {
        "prompt": "def encode_shift(s: str):\n    return \"\".join([chr(((ord(ch) + 5 - ord(\"a\")) % 26) + ord(\"a\")) for ch in s])\n\n\ndef decode_shift(s: str):\n    \"\"\"Inverse of encode_shift.\"\"\"\n",
        "test": "def check(candidate):\n    for s in ('abc', 'sandbox', 'zzzz'):\n        assert candidate(encode_shift(s)) == s\n",
        "entry_point": "decode_shift",
        "solution": "    return \"\".join([chr(((ord(ch) - 5 - ord(\"a\")) % 26) + ord(\"a\")) for ch in s])\n",
        "hack": "\ndef encode_shift(s):\n    return s\n\ndef decode_shift(s):\n    return s\n",
    },
}  # fmt: skip


@pytest.mark.parametrize("task", sorted(HELPER_ROWS))
def test_redefining_a_test_helper_changes_nothing(pool, host, task):
    from verifiers.code import humaneval_program, humaneval_tests

    row = HELPER_ROWS[task]
    tests = humaneval_tests(row)
    good = run_tests(humaneval_program(row, row["solution"]), tests, timeout=30.0, pool=pool)
    assert good.reward == 1.0, [(t.error, t.message) for t in good.tests]  # control
    attack(pool, humaneval_program(row, row["solution"]) + row["hack"], tests=tests)
    # the original harness's namespace (prompt + completion + test in one module) is fooled:
    # the proof that this attack would work without the fix
    ns: dict = {}
    exec(humaneval_program(row, row["solution"]) + row["hack"] + "\n" + row["test"], ns)
    ns["check"](ns[row["entry_point"]])


# ----------------------------------------------------------------------------- the filesystem


def test_host_files_outside_every_hidden_folder_are_absent(pool, host):
    """A copy of a dataset (canonical solutions) anywhere on the host: the home folder, the
    checkout, the system temp dir. Reading it would pass; the files must not even exist."""
    solution = "def add(a, b):\n    return a + b\n"
    row = json.dumps({"task_id": "Add/0", "canonical_solution": solution, "marker": SECRET})
    places = [host / "HumanEval.jsonl", Path(os.getcwd()) / f".rlvr-canary-{os.getpid()}.jsonl"]
    for p in places:
        p.write_text(row + "\n")
        os.chmod(p, 0o644)
    code = f"""
import json, os
def add(a, b):
    for path in {[str(p) for p in places]!r}:
        try:
            with open(path) as f:
                ns = {{}}
                exec(json.loads(f.readline())["canonical_solution"], ns)
                return ns["add"](a, b)
        except Exception:
            pass
    return [p for p in {[str(p) for p in places] + [str(host)]!r} if os.path.lexists(p)]
"""
    try:
        result = attack(pool, code)
        assert result.tests[0].got == "[]", result.tests[0].got  # absent, not just unreadable
    finally:
        for p in places:
            p.unlink()


def test_a_user_namespace_does_not_uncover_anything(pool, host):
    """Unprivileged user namespaces give a candidate CAP_SYS_ADMIN over a copy of its mount
    table: the mounts it inherited stay locked together, so nothing covered reappears."""
    import sys

    site = os.path.join(os.path.realpath(sys.base_prefix), "lib",
                        "python{}.{}".format(*sys.version_info[:2]), "site-packages")  # fmt: skip
    code = f"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
def add(a, b):
    steps = []
    if libc.unshare(0x10000000 | 0x00020000) == 0:  # CLONE_NEWUSER | CLONE_NEWNS
        steps.append("userns")
        for path in ({site!r}, "/root/.pyenv", "/usr/lib", "/"):
            if libc.umount2(path.encode(), 2) == 0:
                steps.append("umount " + path)
    seen = os.listdir({site!r}) + [p for p in ("/work", "/home", "/.old") if os.path.exists(p)]
    return "pwned" if seen or len(steps) > 1 else " ".join(steps)
"""
    result = attack(pool, code, tests=STEAL)
    # a candidate gets no namespace of its own any more (issue #32): the door is shut
    assert result.tests[0].got == repr(""), result.tests[0].got


# ----------------------------------------------------------------------------- issue #32
# The read-only root is the host's own files, so their page-cache state, their locks and
# inotify events are shared by every candidate of every sandbox: a writer that solved the
# task published its answers as cached/evicted pages of a file nobody reads, a reader with
# no solving logic read them back with RWF_NOWAIT and scored 1.0. Each primitive such a
# channel needs (evict, probe without caching, lock, watch, read host-wide counters) and
# each door to namespaces of the candidate's own must be shut.
CHANNEL_PROBE = r"""
import ctypes, errno, fcntl, os, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.syscall.restype = ctypes.c_long
X86 = platform.machine() == "x86_64"
NR = {"cachestat": 451, "io_uring_setup": 425, "process_madvise": 440, "clone3": 435,
      "clone": 56 if X86 else 220}
def add(a, b):
    reached = []
    fd = os.open(os.__file__, os.O_RDONLY)
    def attempt(name, fn):
        try:
            if fn() is not False:
                reached.append(name)
        except BlockingIOError:
            reached.append(name)  # EAGAIN: RWF_NOWAIT answered "not cached"
        except OSError:
            pass
    attempt("fadvise", lambda: os.posix_fadvise(fd, 0, 4096, os.POSIX_FADV_DONTNEED))
    attempt("RWF_NOWAIT", lambda: os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT))
    addr = libc.mmap(None, 4096, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
    vec = ctypes.create_string_buffer(1)
    attempt("mincore", lambda: libc.mincore(ctypes.c_void_p(addr), 4096, vec) == 0)
    for advice in (9, 20, 21):
        attempt(f"madvise {advice}", lambda: libc.madvise(ctypes.c_void_p(addr), 4096, advice) == 0)
    rng, cs = ctypes.create_string_buffer(16), ctypes.create_string_buffer(64)
    attempt("cachestat", lambda: libc.syscall(NR["cachestat"], fd, rng, cs, 0) == 0)
    params = ctypes.create_string_buffer(120)
    attempt("io_uring", lambda: libc.syscall(NR["io_uring_setup"], 1, params) >= 0)
    iov = (ctypes.c_void_p * 2)(addr, 4096)
    pidfd = os.pidfd_open(os.getpid())
    attempt("process_madvise", lambda: libc.syscall(NR["process_madvise"], pidfd, iov, 1, 21, 0) >= 0)
    attempt("unshare userns", lambda: libc.unshare(0x10000000) == 0)
    def clone_userns():
        pid = libc.syscall(NR["clone"], 0x10000000 | 17, 0, 0, 0, 0)
        if pid == 0:
            os._exit(0)
        if pid > 0:
            os.waitpid(pid, 0)
        return pid > 0
    attempt("clone userns", clone_userns)
    args = ctypes.create_string_buffer(88)
    def clone3():
        libc.syscall(NR["clone3"], args, 1)  # a bad size: EINVAL when the call exists
        return ctypes.get_errno() != errno.ENOSYS
    attempt("clone3", clone3)
    attempt("flock", lambda: fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB))
    attempt("lockf", lambda: fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB))
    attempt("inotify", lambda: libc.inotify_init1(0) >= 0)
    attempt("sysinfo", lambda: libc.sysinfo(ctypes.create_string_buffer(256)) == 0)
    return reached
"""


def test_page_cache_locks_watches_namespaces_and_host_counters_are_refused(pool, host):
    result = attack(pool, CHANNEL_PROBE, tests=STEAL)
    assert result.tests[0].got == "[]", result.tests[0].got  # every primitive refused


# Reading a page caches it, and a read of a cached page is fast: a writer reads the pages of
# its 1 bits in stdlib files nobody imports, a reader times one read per page. No refused
# call is needed, so the fix is that every visible file stays cached (jail.pin).
CACHE_FILES = ("_pydecimal.py", "turtle.py", "pydoc.py", "tarfile.py", "doctest.py")
CACHE_STRIDE = 4 << 12  # past the readahead window of a one-byte read


def _cache_slots() -> list[tuple[str, int]]:
    import sysconfig

    stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
    return [
        (os.path.join(stdlib, name), offset)
        for name in CACHE_FILES
        for offset in range(0, os.path.getsize(os.path.join(stdlib, name)), CACHE_STRIDE)
    ]


CACHE_WRITER = """
import os
def add(a, b):
    for (path, offset), bit in zip(SLOTS, BITS):
        if bit:
            fd = os.open(path, os.O_RDONLY)
            os.pread(fd, 1, offset)
            os.close(fd)
    return "sent"
"""
CACHE_READER = """
import os, time
def add(a, b):
    times = []
    for path, offset in SLOTS:
        fd = os.open(path, os.O_RDONLY)
        start = time.perf_counter_ns()
        os.pread(fd, 1, offset)
        times.append(time.perf_counter_ns() - start)
        os.close(fd)
    cut = sorted(times)[len(times) // 2]  # the reader knows about half the bits are 1
    return format(sum((t < cut) << i for i, t in enumerate(times)), "x")  # fast: cached
"""


def test_the_page_cache_carries_nothing_to_the_next_candidate(host):
    import random

    slots = _cache_slots()
    right = total = 0
    # Three trials with fresh bits, judged on their sum: one trial's 44 bits gave a false
    # alarm under CI's load (32 right), and a real channel is right in every trial.
    for seed in (32, 33, 34):
        rng = random.Random(seed)
        bits = [rng.randrange(2) for _ in slots]
        single = SandboxPool(workers=1)  # writer and reader: one after the other
        try:
            for path in {p for p, _ in slots}:  # cold pages, as in files nobody imports
                fd = os.open(path, os.O_RDONLY)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                os.close(fd)
            head = f"SLOTS = {slots!r}\nBITS = {bits!r}\n"
            sent = run_tests(head + CACHE_WRITER, STEAL, timeout=30.0, pool=single)
            assert sent.tests[0].got == repr("sent"), sent.tests[0]
            got = attack(single, head + CACHE_READER, tests=STEAL, timeout=30.0).tests[0].got
        finally:
            single.close()
        mask = int(got.strip("'"), 16)
        right += sum(((mask >> i) & 1) == b for i, b in enumerate(bits))
        total += len(bits)
    # chance is half (sd sqrt(total)/2, 5.7 for 132 bits); the open channel read 38 of 44 right
    assert right < total / 2 + 4 * (total ** 0.5) / 2, (right, total)


# The same channel through the dentry cache: looking up a missing name in a host folder
# leaves a negative dentry, and the next lookup of that name is faster.
DENTRY_WRITER = """
import os
def add(a, b):
    for i, bit in enumerate(BITS):
        if bit:
            os.path.exists(f"{FOLDER}/{TAG}{i}")
    return "sent"
"""
DENTRY_READER = """
import os, time
def add(a, b):
    times = []
    for i in range(len(BITS)):
        start = time.perf_counter_ns()
        os.path.exists(f"{FOLDER}/{TAG}{i}")
        times.append(time.perf_counter_ns() - start)
    cut = sorted(times)[len(times) // 2]  # the reader knows about half the bits are 1
    return format(sum((t < cut) << i for i, t in enumerate(times)), "x")
"""


def test_the_dentry_cache_carries_nothing_to_the_next_candidate(host):
    import random
    import sysconfig

    rng = random.Random(33)
    bits = [rng.randrange(2) for _ in range(256)]
    head = (
        f"FOLDER = {os.path.realpath(sysconfig.get_path('stdlib'))!r}\n"
        f"TAG = 'rlvr{time.time_ns()}-'\nBITS = {bits!r}\n"
    )
    single = SandboxPool(workers=1)
    try:
        sent = run_tests(head + DENTRY_WRITER, STEAL, timeout=30.0, pool=single)
        assert sent.tests[0].got == repr("sent"), sent.tests[0]
        got = attack(single, head + DENTRY_READER, tests=STEAL, timeout=30.0).tests[0].got
    finally:
        single.close()
    mask = int(got.strip("'"), 16)
    right = sum(((mask >> i) & 1) == b for i, b in enumerate(bits))
    # chance is 128 of 256 (sd 8); the open channel read 250 of 256 right
    assert right < 128 + 40, right


USERNS_TMPFS = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
def add(a, b):
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(0x10000000 | 0x00020000) != 0:  # CLONE_NEWUSER | CLONE_NEWNS
        return "refused"
    for name, text in (("uid_map", f"0 {uid} 1"), ("setgroups", "deny"), ("gid_map", f"0 {gid} 1")):
        with open(f"/proc/self/{name}", "w") as f:
            f.write(text)
    if libc.mount(b"none", b"/tmp", b"tmpfs", 0, b"size=1g") != 0:
        return "no mount"
    for i in range(20):  # 300 MiB: past the 256 MiB /tmp cap, outside RLIMIT_AS
        with open(f"/tmp/big{i}", "wb") as f:
            os.posix_fallocate(f.fileno(), 0, 15 << 20)  # real pages, fast
    return "pwned"
"""


def test_no_tmpfs_of_its_own_through_a_user_namespace(pool, host):
    result = attack(pool, USERNS_TMPFS, tests=STEAL)
    assert result.tests[0].got == repr("refused"), result.tests[0].got


def test_a_completion_over_the_job_size_limit_scores_zero_not_no_signal(pool, host):
    from verifiers.code import wire

    code = "def add(a, b):\n    return 'x'\n#" + "x" * (wire.JOB_BYTES + (1 << 20)) + "\n"
    result = attack(pool, code)
    assert {t.error for t in result.tests} == {"code_too_large"}, result.tests
    # JSON escapes count: 20 MiB of NUL bytes are 120 MiB as a job
    result = attack(pool, "def add(a, b):\n    return 'x'\n#" + "\0" * (20 << 20))
    assert {t.error for t in result.tests} == {"code_too_large"}, result.tests


MATCH = """
import re
def check_str(s):
    return re.match("^[aeiou]", s)
"""


def test_an_object_the_wire_cannot_carry_is_judged_by_its_truth_only(pool, host):
    """MBPP 737, 787, 794 return a ``re.Match`` and their tests only ask its truth."""
    asks = ["assert check_str('annie')", "assert not check_str('dawood')",
            "assert check_str('annie') == True", "assert check_str('annie') != None",
            "assert repr(check_str('annie')).startswith('<re.Match')",
            "assert check_str('annie') == check_str('annie')"]  # fmt: skip
    tests = [{"assert_code": a, "entry_point": "check_str"} for a in asks]
    tests.append({"entry_point": "check_str", "args": ["annie"], "expected": True})
    r = run_tests(MATCH, tests, timeout=10.0, pool=pool)
    assert r.status == "ok"
    # truth and repr as for the real object; equal to nothing, itself included (each call
    # makes a new object); a call test compares plain data only
    assert [t.passed for t in r.tests] == [True, True, False, True, True, False, False], [
        (t.error, t.message) for t in r.tests
    ]
    assert r.tests[-1].error == "UnsupportedReturn"


LYING_OBJECT = """
class Liar:
    def __eq__(self, other):
        return True
    __hash__ = None
    def __bool__(self):
        return True
def add(a, b):
    return Liar()
"""


def test_an_opaque_object_that_equals_everything_still_scores_zero(pool, host):
    tests = [{"assert_code": "assert add(1, 2) == 3", "entry_point": "add"},
             {"assert_code": "assert add(1, 2) in (3,)", "entry_point": "add"},
             {"assert_code": "assert 3 == add(1, 2)", "entry_point": "add"}]  # fmt: skip
    attack(pool, LYING_OBJECT, tests=tests)


def test_a_future_import_in_a_complete_answer_is_hoisted_above_the_prompt(pool):
    from verifiers.code import code_check

    prompt = 'from typing import List\n\n\ndef f(xs: List[int]) -> int:\n    """Sum."""\n'
    answer = "```python\nfrom __future__ import annotations\n\ndef f(xs: list[int]) -> int:\n    return sum(xs)\n```"
    tests = [{"assert_code": "def check(candidate):\n    assert candidate([1, 2]) == 3\n",
              "entry_point": "f"}]  # fmt: skip
    v = code_check(answer, tests, prefix=prompt, pool=pool)
    assert v.reward == 1.0, v.details


def test_each_assert_has_its_own_time_and_cpu_budget(pool):
    """MBPP 123's gold needs ~9 s for its three asserts on a loaded machine: the budget is
    per test, not shared, in wall time (``timeout``; the whole job stops at 1.5x) and CPU
    time (``Limits.cpu_s``)."""
    slow = "import time\ndef f(x):\n    time.sleep(0.4)\n    return x\n"
    tests = [{"assert_code": f"assert f({i}) == {i}", "entry_point": "f"} for i in range(3)]
    r = run_tests(slow, tests, timeout=1.0, pool=pool)
    assert [t.passed for t in r.tests] == [True] * 3, [(t.error, t.message) for t in r.tests]
    busy = "import time\ndef f(x):\n    end = time.process_time() + 0.4\n    while time.process_time() < end:\n        pass\n    return x\n"
    r = run_tests(busy, tests, timeout=10.0, pool=pool, limits=Limits(cpu_s=1))
    assert [t.passed for t in r.tests] == [True] * 3, [(t.error, t.message) for t in r.tests]


# ----------------------------------------------------------------------------- cleanup

HOSTILE_FILES = {
    "deep_tree_in_cwd": "for _ in range(3000):\n    os.mkdir('d')\n    os.chdir('d')\n",
    "deep_tree_in_tmp": "os.chdir('/tmp')\nfor _ in range(3000):\n    os.mkdir('t')\n    os.chdir('t')\n",
    "deep_tree_in_dev_shm": "os.chdir('/dev/shm')\nfor _ in range(3000):\n    os.mkdir('s')\n    os.chdir('s')\n",
    "chmod_000": "os.makedirs('a/b/c')\nopen('a/b/c/f', 'w').close()\nfor p in ('a/b/c/f', 'a/b/c', 'a/b', 'a', '.'):\n    os.chmod(p, 0)\n",
    "symlink_loops": "os.symlink('x', 'y')\nos.symlink('y', 'x')\nos.symlink('.', 'self')\nos.symlink('/', 'root')\nos.mkdir('l')\nos.symlink('..', 'l/up')\n",
    "fill_the_writable_folder": "try:\n    while True:\n        open(f'f{len(os.listdir())}', 'wb').write(b'0' * (15 << 20))\nexcept OSError:\n    pass\ntry:\n    for i in range(100000):\n        open(f'e{i}', 'w').close()\nexcept OSError:\n    pass\n",
}  # fmt: skip
# the next candidate of the same zygote: a fresh, empty /tmp with room to write
FOLLOW_UP = """
import os
fresh = os.listdir("/tmp") == [] and os.listdir(".") == [] and os.getcwd() == "/tmp"
with open("x", "wb") as f:
    f.write(b"0" * (8 << 20))
def add(a, b):
    return a + b if fresh else -1
"""


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_hostile_files_cannot_break_cleanup_or_reach_the_next_candidate(host, name):
    single = SandboxPool(workers=1)
    try:
        code = "import os\ndef add(a, b):\n    return 0\n" + HOSTILE_FILES[name]
        attack(single, code)  # 0, never None: a wrong program is never "no signal"
        for _ in range(2):
            r = run_tests(FOLLOW_UP, ADD_TESTS, timeout=30.0, pool=single)
            assert r.reward == 1.0, [(t.error, t.message, t.got) for t in r.tests]
    finally:
        single.close()


def test_remove_tree_survives_what_a_candidate_can_build(tmp_path):
    """The fallback cleanup (no mount namespace): never raises, never recurses."""
    from verifiers.code import harness

    top = tmp_path / "cand"
    top.mkdir()
    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(3000):  # deeper than the recursion limit and than PATH_MAX
            os.mkdir("d", dir_fd=fd)
            nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        os.symlink("..", "up", dir_fd=fd)
        os.mkdir("locked", 0, dir_fd=fd)
    finally:
        os.close(fd)
    os.symlink("x", top / "y")
    os.symlink("y", top / "x")
    (top / "f").write_text("x")
    os.chmod(top / "f", 0)
    start = time.monotonic()
    # a generous deadline: rmdir alone can take milliseconds on a disk mounted with discard
    assert harness._remove_tree(str(top), deadline_s=120.0) is True
    assert not top.exists() and time.monotonic() - start < 120.0
    assert harness._remove_tree(str(tmp_path / "missing")) is True  # no raise either


def test_a_sandbox_in_doubt_restarts_itself(host):
    single = SandboxPool(workers=1)
    try:
        assert run_tests(FOLLOW_UP, ADD_TESTS, timeout=30.0, pool=single).reward == 1.0
        box = single._all[0]
        first = box.proc.pid
        (supervisor,) = psutil.Process(first).children()
        (zygote,) = supervisor.children()
        zygote.kill()  # as if the zygote had died: its supervisor can no longer fork
        give_up = time.monotonic() + 10
        while zygote.is_running() and zygote.status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < give_up
            time.sleep(0.01)
        lost = run_tests(FOLLOW_UP, ADD_TESTS, timeout=30.0, pool=single)
        assert lost.status == "no_signal" and lost.reward is None  # infrastructure, not 0
        again = run_tests(FOLLOW_UP, ADD_TESTS, timeout=30.0, pool=single)
        assert again.reward == 1.0 and box.proc.pid != first  # a fresh sandbox
    finally:
        single.close()


# ----------------------------------------------------------------------------- universal hack
# One fixed completion for every problem: it hooks the candidate side so that any function
# the judge asks for exists, then answers from a lookup table built by parsing every
# ``assert f(args) == value`` it can find in its own memory (frames, gc, /proc/self/mem).
# Against a sandbox whose candidate memory held the tests it scored most rows.

UNIVERSAL_HACK = r"""
import ast, gc, re, sys
_table, _learned = {}, []
def _strings():
    found, roots = [], []
    f = sys._getframe()
    while f is not None:
        roots += [*f.f_locals.values(), *f.f_globals.values()]
        f = f.f_back
    roots += [o for o in gc.get_objects() if isinstance(o, (dict, list, tuple))]
    stack, seen = [(o, 0) for o in roots], set()
    while stack and len(found) < 100000:
        o, depth = stack.pop()
        if id(o) in seen:
            continue
        seen.add(id(o))
        try:
            if isinstance(o, str):
                if "assert" in o:
                    found.append(o)
            elif depth < 6 and isinstance(o, dict):
                stack += [(v, depth + 1) for v in list(o.values())]
            elif depth < 6 and isinstance(o, (list, tuple)):
                stack += [(v, depth + 1) for v in list(o)]
        except Exception:  # a lazy mapping that imports on access, in a big process
            pass
    try:
        with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", buffering=0) as mem:
            for line in maps:
                span, perms = line.split()[:2]
                lo, hi = (int(x, 16) for x in span.split("-"))
                if "r" not in perms or hi - lo > 1 << 28:
                    continue
                try:
                    mem.seek(lo)
                    chunk = mem.read(hi - lo)
                except (OSError, ValueError, OverflowError):
                    continue
                found += [m.decode(errors="ignore") for m in re.findall(rb"assert [^\n\x00]{1,400}", chunk)]
    except OSError:
        pass
    return found
def _learn():
    for text in _strings():
        for line in text.splitlines():
            line = line.strip()
            if not line.startswith("assert "):
                continue
            try:
                test = ast.parse(line).body[0].test
                if isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.Eq):
                    args = tuple(ast.literal_eval(a) for a in test.left.args)
                    _table[repr(args)] = ast.literal_eval(test.comparators[0])
            except Exception:
                pass
def _answer(*args):
    if LEARN and not _learned:
        _learned.append(1)
        _learn()
    return _table.get(repr(args))
_main = sys.modules.get("__main__")
_read = getattr(_main, "_read_msg", None)
if _read is not None:
    def _hooked(*a):
        request = _read(*a)
        if isinstance(request, dict) and isinstance(request.get("name"), str):
            globals()[request["name"]] = _answer  # whatever the judge calls, exists
        return request
    _main._read_msg = _hooked
"""


def test_the_universal_hack_is_a_working_attack():
    """Control: where the tests are in memory (as the old zygote's job dict was), it wins."""
    job = {"tests": [{"assert_code": "def check(candidate):\n    assert candidate([3, 1], 'x') == [1, 3]\n"}]}  # fmt: skip
    ns: dict = {"LEARN": True}
    exec(UNIVERSAL_HACK, ns)  # in this process, where ``job`` is alive
    assert ns["_answer"]([3, 1], "x") == [1, 3] and job


def test_universal_hack_passes_no_mbpp_or_humaneval_row():
    import tasks
    from verifiers.code import run_tests_batch

    try:
        rows = [r for name in ("mbpp", "humaneval") for r in tasks.get(name).rows("test", limit=50)]
    except Exception as e:  # the datasets are not on this machine
        pytest.skip(f"MBPP/HumanEval data unavailable: {e}")
    assert len(rows) == 100
    tests = [list(r.info["tests"]) for r in rows]
    pool = SandboxPool(workers=2)
    try:
        runs = {}
        for learn in (True, False):  # False: the same hook answering None, a do-nothing
            codes = [r.info.get("prefix", "") + f"LEARN = {learn}\n" + UNIVERSAL_HACK for r in rows]
            runs[learn] = run_tests_batch(codes, tests, timeout=20.0, pool=pool)
    finally:
        pool.close()
    hack, nothing = runs[True], runs[False]
    assert all(r.status == "ok" for r in hack + nothing), [r.reason for r in hack if r.reason]
    assert [r.id for r, res in zip(rows, hack) if res.all_passed] == []
    # nothing gained over doing nothing, test by test (``assert not f(x)`` passes for both)
    gained = [(r.id, t.index) for r, h, n in zip(rows, hack, nothing)
              for t, u in zip(h.tests, n.tests) if t.passed and not u.passed]  # fmt: skip
    assert gained == []
