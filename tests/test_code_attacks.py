"""Attacks on the code sandbox: each must score 0, end within its deadline, leave the host as
it was, and leave the pool usable.

Every attack program defines ``add`` (the task: ``add(1, 2) == 3``) but tries to win without
computing it, or to harm the host. Where an attack could "succeed" silently (reading a
secret, writing a file), the program returns the stolen thing and the test expects exactly
that, so a successful attack would score 1 and fail the test.
"""

from __future__ import annotations

import ctypes
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
        if len(kids) > 2:  # the namespace's init (the supervisor), its zygote, nothing else
            found.append(f"zygote {box.proc.pid} has {len(kids)} descendants")
    return found


def attack(pool, code: str, tests=ADD_TESTS, **kw):
    start = time.monotonic()
    result = run_tests(code, tests, timeout=TIMEOUT, limits=LIMITS, pool=pool, **kw)
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
    assert {t.error for t in result.tests} == {"UnsupportedReturn"}


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
