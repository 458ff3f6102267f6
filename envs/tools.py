"""Tools from plain Python functions: JSON schemas, Hermes/Qwen call parsing, validation and
bounded execution.

A tool is a function with type hints and a Google-style docstring; its schema comes from
transformers' ``get_json_schema`` (the one TRL uses), so it renders through any chat
template's ``tools=`` section. The model calls tools the way Hermes and Qwen models do::

    <tool_call>{"name": "add", "arguments": {"a": 2, "b": 3}}</tool_call>

several per turn, with ``arguments`` an object or a JSON-encoded string. Every call is
checked against its schema and run under limits, and anything that goes wrong (bad JSON, an
unknown name, a wrong type, a raise, a hang, a 10 MB result) becomes an ``Error: ...`` text
for the tool message, never an exception in the rollout:

- a **per-call deadline**: a picklable function runs in a killable worker process
  (``verifiers.deadline``), killed at the deadline; anything else runs in a daemon thread
  that the env stops waiting for at the deadline;
- a **result size limit**: longer results are cut, with a marker saying how much was cut
  (in the worker, so a huge result never crosses the pipe);
- model-written code (``python_tool``) runs in the code sandbox of ``verifiers.code``.

Example:
    >>> def add(a: int, b: int) -> int:
    ...     '''Add two integers.
    ...
    ...     Args:
    ...         a: the first
    ...         b: the second
    ...     '''
    ...     return a + b
    >>> t = Tool(add, isolate=False)
    >>> t.schema["function"]["parameters"]["required"]
    ['a', 'b']
    >>> parse_tool_calls('<tool_call>{"name": "add", "arguments": "{\\\\"a\\\\": 2, \\\\"b\\\\": 3}"}</tool_call>')
    [ToolCall(name='add', arguments={'a': 2, 'b': 3}, error=None)]
    >>> ToolBox([t]).run(ToolCall("add", {"a": 2, "b": "3"}))
    "Error: add: argument 'b' must be integer, got '3'"
"""

from __future__ import annotations

import json
import math
import pickle
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from envs.base import show

DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_RESULT_CHARS = 4_000
TRUNCATED = "...[truncated: {cut} of {total} characters not shown]"
OPEN, CLOSE = "<tool_call>", "</tool_call>"


@dataclass(frozen=True)
class ToolCall:
    """One call found in the model's text; ``error`` says why it could not be read."""

    name: str
    arguments: dict = field(default_factory=dict)
    error: str | None = None


# ----------------------------------------------------------------------- parsing


def _loads(body: str) -> tuple[Any, str | None]:
    """``json.loads`` that reports instead of raising (deep nesting raises RecursionError,
    a 5,000-digit number ValueError)."""
    try:
        return json.loads(body), None
    except json.JSONDecodeError as err:
        return None, f"{err.msg} at char {err.pos}"
    except RecursionError:
        return None, "nested too deeply"
    except ValueError as err:
        return None, str(err).split(";")[0]


def _bodies(text: str) -> tuple[list[str], bool]:
    """The body of every ``<tool_call>...</tool_call>`` (``str.find``, linear: the lazy
    regex rescans to the end from every unclosed tag), and whether one is left unclosed."""
    bodies, position = [], 0
    while (start := text.find(OPEN, position)) >= 0:
        end = text.find(CLOSE, start + len(OPEN))
        if end < 0:
            return bodies, True
        bodies.append(text[start + len(OPEN): end])
        position = end + len(CLOSE)
    return bodies, False


def _parse_one(body: str) -> ToolCall:
    payload, error = _loads(body.strip())
    if error is not None:
        return ToolCall("?", {}, f"invalid JSON in tool call: {error}")
    if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
        return ToolCall("?", {}, 'a tool call must be a JSON object with a "name" string')
    arguments = payload.get("arguments", payload.get("parameters", {}))
    if isinstance(arguments, str):  # OpenAI-style: the arguments JSON-encoded as a string
        arguments, error = _loads(arguments) if arguments.strip() else ({}, None)
        if error is not None:
            return ToolCall(payload["name"], {}, f"invalid JSON in the arguments string: {error}")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return ToolCall(payload["name"], {}, '"arguments" must be a JSON object')
    return ToolCall(payload["name"], arguments)


def parse_tool_calls(text: str) -> list[ToolCall]:
    """Every ``<tool_call>{json}</tool_call>`` in ``text``, in order; unreadable ones carry
    an ``error`` (an unclosed tag is one such call).

    Example:
        >>> parse_tool_calls('<tool_call>{"name": "f"}</tool_call><tool_call>{oops</tool_call>')[1].error
        'invalid JSON in tool call: Expecting property name enclosed in double quotes at char 1'
    """
    bodies, unclosed = _bodies(text)
    calls = [_parse_one(body) for body in bodies]
    if unclosed:
        calls.append(ToolCall("?", {}, f"{OPEN} is never closed with {CLOSE}"))
    return calls


def has_tool_call(text: str) -> bool:
    return OPEN in text


# ----------------------------------------------------------------------- validation

_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: (isinstance(v, int | float) and not isinstance(v, bool)
                         and math.isfinite(v)),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def _type_error(value: Any, spec: Mapping[str, Any], where: str) -> str | None:
    kinds = spec.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_TYPES.get(k, lambda v: True)(value) for k in kinds):
            return f"{where} must be {' or '.join(kinds)}, got {show(value, 40)}"
    if "enum" in spec and value not in spec["enum"]:
        return f"{where} must be one of {spec['enum']}, got {show(value, 40)}"
    if isinstance(value, list) and isinstance(spec.get("items"), Mapping):
        for i, item in enumerate(value[:1000]):
            if (error := _type_error(item, spec["items"], f"{where}[{i}]")) is not None:
                return error
    return None


def validate(arguments: Mapping[str, Any], parameters: Mapping[str, Any]) -> str | None:
    """Why ``arguments`` do not fit the schema's ``parameters`` (required keys, no unknown
    keys, JSON types, enums, array items), or ``None`` when they fit."""
    properties = dict(parameters.get("properties") or {})
    for name in parameters.get("required") or ():
        if name not in arguments:
            return f"missing required argument {show(name, 40)}"
    for name, value in arguments.items():
        if name not in properties:
            known = ", ".join(properties) or "none"
            return f"unknown argument {show(name, 40)} (arguments: {known})"
        if (error := _type_error(value, properties[name], f"argument {name!r}")) is not None:
            return error
    return None


# ----------------------------------------------------------------------- running


def cap(text: str, max_chars: int) -> str:
    """``text`` cut to ``max_chars`` characters plus a marker saying how much was cut.

    Example:
        >>> cap("x" * 10, 4)
        'xxxx...[truncated: 6 of 10 characters not shown]'
    """
    if len(text) <= max_chars:
        return text
    return text[:max_chars] + TRUNCATED.format(cut=len(text) - max_chars, total=len(text))


def _as_text(result: Any) -> str:
    if isinstance(result, str):
        return result
    try:
        return json.dumps(result, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):
        return str(result)


def call_capped(fn: Callable[..., Any], arguments: dict, max_chars: int) -> str:
    """``fn(**arguments)`` as text of at most ``max_chars`` (plus the marker). Module-level
    so a deadline worker runs it: the cut happens there, and a 10 MB result never crosses
    the pipe."""
    return cap(_as_text(fn(**arguments)), max_chars)


def _picklable(fn: Any) -> bool:
    try:
        pickle.dumps(fn)
    except Exception:  # noqa: BLE001 - lambdas, closures, local classes: run in a thread
        return False
    return True


class Tool:
    """A Python function the model may call.

    Arguments:
        fn: a function (or a callable object) with type hints and a docstring with an
            ``Args:`` section (transformers' ``get_json_schema`` requirements).
        name: the tool's name (default: the function's).
        timeout: seconds per call before it is abandoned with an error.
        isolate: run calls in a killable worker process (needs ``fn`` picklable; otherwise a
            daemon thread is used). ``False`` runs in a thread: for tools that already
            isolate themselves (the sandboxed ``python`` tool) or are trusted and fast.
        schema: a ready schema instead of ``get_json_schema(fn)``.
    """

    def __init__(self, fn: Callable[..., Any], *, name: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, isolate: bool = True,
                 schema: Mapping[str, Any] | None = None):
        if not callable(fn):
            raise TypeError(f"a tool must be callable, got {show(fn)}")
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not (
                0 < timeout <= 3600):
            raise ValueError(f"timeout must be seconds in (0, 3600], got {show(timeout)}")
        if schema is None:
            from transformers.utils import get_json_schema

            target = fn if hasattr(fn, "__name__") else type(fn).__call__
            schema = get_json_schema(target)
            if not hasattr(fn, "__name__"):  # a callable object: drop `self`
                params = schema["function"]["parameters"]
                params.get("properties", {}).pop("self", None)
                if "self" in params.get("required", []):
                    params["required"].remove("self")
        schema = json.loads(json.dumps(dict(schema)))  # a plain, independent copy
        function = schema.setdefault("function", {})
        if name is not None:
            function["name"] = name
        if not isinstance(function.get("name"), str) or not function["name"]:
            raise ValueError("a tool needs a name (pass name=...)")
        function.setdefault("parameters", {"type": "object", "properties": {}})
        schema.setdefault("type", "function")
        self.fn = fn
        self.schema = schema
        self.name: str = function["name"]
        self.timeout = float(timeout)
        self.isolate = bool(isolate) and _picklable(fn)

    def __repr__(self) -> str:
        return f"Tool({self.name!r}, timeout={self.timeout}, isolate={self.isolate})"

    def __call__(self, arguments: dict, max_chars: int) -> str:
        """The result text, or an ``Error: ...`` text; never raises, never outlives the
        deadline."""
        if self.isolate:
            from verifiers.deadline import DeadlineExceeded, WorkerError, run_with_deadline

            try:
                return run_with_deadline(call_capped, self.fn, arguments, max_chars,
                                         timeout=self.timeout)
            except DeadlineExceeded:
                return f"Error: {self.name} did not finish within {self.timeout:g} s"
            except WorkerError as err:
                return f"Error: {self.name} raised {cap(str(err), 300)}"
        return _in_thread(self, arguments, max_chars)


def _in_thread(tool: Tool, arguments: dict, max_chars: int) -> str:
    box: dict[str, str] = {}

    def target() -> None:
        try:
            box["out"] = call_capped(tool.fn, arguments, max_chars)
        except BaseException as err:  # noqa: BLE001 - a tool's failure is the model's reply
            box["out"] = f"Error: {tool.name} raised {type(err).__name__}: {cap(str(err), 300)}"

    worker = threading.Thread(target=target, daemon=True, name=f"tool-{tool.name}")
    worker.start()
    worker.join(tool.timeout)
    if worker.is_alive():  # cannot be killed; the daemon thread is abandoned
        return f"Error: {tool.name} did not finish within {tool.timeout:g} s"
    return box.get("out", f"Error: {tool.name} returned nothing")


def as_tool(obj: Tool | Callable[..., Any]) -> Tool:
    return obj if isinstance(obj, Tool) else Tool(obj)


class ToolBox:
    """Named tools plus the limits they run under.

    Example:
        >>> box = ToolBox([])
        >>> box.run(ToolCall("nope", {}))
        "Error: unknown tool 'nope' (available: none)"
    """

    def __init__(self, tools: Sequence[Tool | Callable[..., Any]], *,
                 max_result_chars: int = DEFAULT_MAX_RESULT_CHARS):
        if isinstance(tools, str | bytes) or not isinstance(tools, Sequence):
            raise TypeError(f"tools must be a list of functions or Tools, got {show(tools)}")
        self.tools = {}
        for t in map(as_tool, tools):
            if t.name in self.tools:
                raise ValueError(f"two tools are named {t.name!r}")
            self.tools[t.name] = t
        self.max_result_chars = int(max_result_chars)

    @property
    def schemas(self) -> list[dict]:
        """The JSON schemas, for ``apply_chat_template(..., tools=...)``."""
        return [t.schema for t in self.tools.values()]

    def run(self, call: ToolCall) -> str:
        if call.error is not None:
            return f"Error: {call.error}"
        tool = self.tools.get(call.name)
        if tool is None:
            known = ", ".join(self.tools) or "none"
            return f"Error: unknown tool {show(call.name, 60)} (available: {known})"
        error = validate(call.arguments, tool.schema["function"]["parameters"])
        if error is not None:
            return f"Error: {tool.name}: {error}"
        return tool(call.arguments, self.max_result_chars)


def tools_text(schemas: Sequence[Mapping[str, Any]]) -> str:
    """The tools section the default chat template writes into the system message for
    ``tools=schemas`` (for templates without one, and for prompts rendered without
    ``tools=``)."""
    listing = "\n".join(json.dumps(s, ensure_ascii=False) for s in schemas)
    return ("# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
            "You are provided with function signatures within <tools></tools> XML tags:\n"
            f"<tools>\n{listing}\n</tools>\n\n"
            "For each function call, return a json object with function name and arguments "
            "within <tool_call></tool_call> XML tags:\n<tool_call>\n"
            '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>')
