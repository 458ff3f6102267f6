"""The judge: the trusted process that runs a job's tests against a candidate.

Forked by the sandbox's supervisor (``harness.py``) for call and assert jobs; it never runs
candidate code. A dataset's ``check(candidate)`` or ``assert f(x) == y`` code runs here with
the entry point (and ``candidate``) bound to a ``_Proxy`` whose calls cross to the candidate as
plain data (``wire.encode``) and come back through the strict ``wire.decode``. Every other name
the test code uses resolves here: the test's own helpers and imports (HumanEval's ``poly`` or
``encode_cyclic`` from the task prompt, MBPP's ``test_imports``), builtins and the standard
library, never something the candidate defined. A value the wire cannot carry comes back as
an ``Opaque``: its truth and repr, equal to nothing. Each test's result goes to the supervisor
as one framed message.

Standard library only: imported by the harness under ``python -I -S``.
"""

from __future__ import annotations

import builtins
import sys
import time

import wire


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
        self.next_id, self.dead = 0, False
        # StopIteration from a function that ``map`` calls ends the map as if exhausted, so
        # ``all(map(candidate, xs))`` would hold: those two arrive as CandidateError instead
        self.errors = {
            name: obj
            for name, obj in vars(builtins).items()
            if isinstance(obj, type)
            and issubclass(obj, Exception)
            and not issubclass(obj, (StopIteration, StopAsyncIteration))
        }

    def call(self, name: str, args: tuple, kwargs: dict):
        if self.dead:
            raise CandidateDied("the candidate is no longer running")
        try:
            request = {"args": wire.encode(list(args)), "kwargs": wire.encode(dict(kwargs))}
        except wire.WireError as e:
            raise UnsupportedTest(str(e)) from None
        self.next_id += 1
        request.update(id=self.next_id, name=name)
        try:
            wire.write_all(self.req_fd, wire.pack(request))
            reply = wire.read_msg(self.resp_fd, self.max_bytes)
        except (OSError, wire.WireError) as e:
            self.dead = True
            raise CandidateDied(f"channel broken: {e}") from None
        if reply is None:
            self.dead = True
            raise CandidateDied("the candidate exited while answering")
        if reply.get("id") != self.next_id:
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
        if "opaque" in reply:
            opaque = reply["opaque"]
            if (
                type(opaque) is not list
                or len(opaque) != 2
                or type(opaque[0]) is not bool
                or type(opaque[1]) is not str
                or len(opaque[1]) > wire.OPAQUE_REPR_CHARS
            ):
                raise CandidateError("UnsupportedReturn", "malformed opaque reply")
            return Opaque(*opaque)
        try:
            return wire.decode(reply.get("value"))
        except wire.WireError as e:
            raise CandidateError("UnsupportedReturn", str(e)) from None


class Opaque:
    """Stands for a value of the candidate that is not plain data (a ``re.Match``): it has
    the truth and the repr the candidate computed, and equals nothing but itself. So
    ``assert f(x)`` and ``assert not f(x)`` pass exactly as they would for a bool, which
    the candidate could have returned anyway, and every other use of it fails."""

    __slots__ = ("_truth", "_repr")

    def __init__(self, truth: bool, text: str) -> None:
        self._truth, self._repr = truth, text

    def __bool__(self) -> bool:
        return self._truth

    def __repr__(self) -> str:
        return self._repr

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    __hash__ = object.__hash__


class _TestGlobals(dict):
    """Globals for dataset test code: its own definitions first (helpers, imports, the
    setup), then builtins and the standard library. No other name reaches the candidate:
    only the entry point and ``candidate`` are bound to it (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(__builtins__=builtins, __name__="__judge__")

    def __missing__(self, name: str):
        if name in vars(builtins):
            return vars(builtins)[name]
        if name in sys.stdlib_module_names:
            # MBPP tests use modules the solution imported (``sys.getsizeof``): the original
            # harness ran both in one namespace. Ours imports the trusted copy instead.
            return __import__(name)
        raise KeyError(name)  # exec turns it into NameError


def _run_one(test: dict, channel: _Channel) -> dict:
    if test["kind"] == "call":
        value = channel.call(test["entry_point"], tuple(test["args"]), test["kwargs"])
        if type(value) is Opaque:  # compared by value and type in the parent: plain data only
            raise CandidateError("UnsupportedReturn", f"not plain data: {value!r}")
        return {"value": wire.encode(value)}  # compared in the parent
    ns = _TestGlobals()
    if test.get("setup"):
        exec(compile(test["setup"], "<test setup>", "exec"), ns)
    proxy = _Proxy(channel, test["entry_point"])
    ns["candidate"] = ns[test["entry_point"]] = proxy  # after the setup: it cannot shadow them
    exec(compile(test["assert_code"], "<test>", "exec"), ns)
    check = dict.get(ns, "check")
    if callable(check) and check is not proxy:
        check(proxy)  # HumanEval's convention: the test defines check(candidate)
    return {"passed": True}


def run(job: dict, req_fd: int, resp_fd: int, out_fd: int) -> None:
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
            name, text = wire.describe(e)
            result = {"passed": False, "error": name, "message": text}
        result.update(index=i, time=time.perf_counter() - start)
        wire.write_all(out_fd, wire.pack(result))
